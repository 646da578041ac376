using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;
using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Splitting;

namespace SensorPipeline.Telemetry.Tests;

/// <summary>
/// The handler's telemetry registration as the handler runs it: AddPipelineMetrics from configuration, the flusher as
/// a hosted service. No explicit flush anywhere: aggregates must arrive on their own within a few intervals, with an
/// aggregation period cut to the configured interval instead of the SDK's 60 s.
/// </summary>
public sealed class MetricFlusherTests
{
    [Fact]
    public async Task AddPipelineMetrics_OneSecondInterval_AggregatesArriveWithoutAnExplicitFlush()
    {
        await using var server = await TelemetryServer.StartAsync();
        using var host = Host(new Dictionary<string, string?>
        {
            [TelemetryOptions.ConnectionStringSetting] = server.ConnectionString,
            ["Telemetry:MetricFlushInterval"] = "00:00:01",
        });
        await host.StartAsync();
        var metrics = host.Services.GetRequiredService<PipelineMetrics>();

        metrics.BatchReceived("Splitter", "0", [new InputEvent(ReadOnlyMemory<byte>.Empty, new SourcePosition("0", 1, DateTimeOffset.UtcNow.ToUnixTimeMilliseconds()))], 9, DateTimeOffset.UtcNow);
        var summary = await server.WaitForAsync(s => s.Functions.Any(f => f.ReadingsReceived == 9));
        await host.StopAsync();

        Assert.True(metrics.Enabled);
        Assert.Equal(9, Assert.Single(summary.Functions).ReadingsReceived);
        var point = (await server.WaitForPointsAsync(MetricNames.ReadingsReceived))[0];
        Assert.InRange(point.GetProperty("intervalMs").GetDouble(), 1, 3_000);
    }

    [Fact]
    public async Task AddPipelineMetrics_NoConnectionString_IsANoOp()
    {
        using var host = Host(new Dictionary<string, string?>());
        await host.StartAsync();

        var metrics = host.Services.GetRequiredService<PipelineMetrics>();
        metrics.ReadingWritten("WeatherProcessor", "0", 1, 1);
        await host.StopAsync();

        Assert.False(metrics.Enabled);
        Assert.Empty(host.Services.GetServices<IHostedService>());
    }

    [Theory]
    [InlineData("Telemetry:MetricFlushInterval", "00:05:01", "Telemetry__MetricFlushInterval")]
    [InlineData("Telemetry:MetricFlushInterval", "00:00:00.5", "Telemetry__MetricFlushInterval")]
    [InlineData("Telemetry:PartitionLagThreshold", "01:00:01", "Telemetry__PartitionLagThreshold")]
    [InlineData(TelemetryOptions.AuthenticationStringSetting, "Authorization=Key;ClientId=abc", TelemetryOptions.AuthenticationStringSetting)]
    [InlineData(TelemetryOptions.ConnectionStringSetting, "IngestionEndpoint=http://127.0.0.1:1/", TelemetryOptions.ConnectionStringSetting)]
    public async Task AddPipelineMetrics_BadSetting_FailsAtStartNamingIt(string key, string value, string named)
    {
        using var host = Host(new Dictionary<string, string?> { [key] = value });

        var e = await Assert.ThrowsAsync<OptionsValidationException>(() => host.StartAsync());

        Assert.Contains(named, e.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("Authorization=AAD;ClientId=7b0c1d3e-1111-4222-8333-944445555666", true, "7b0c1d3e-1111-4222-8333-944445555666")]
    [InlineData("Authorization=AAD", true, null)]
    [InlineData("ClientId=7b0c1d3e-1111-4222-8333-944445555666", false, null)]
    [InlineData("Authorization=AAD;ClientId=not-a-guid", false, null)]
    public void TryParse_AuthenticationString_ClientIdOrError(string value, bool ok, string? clientId)
    {
        Assert.Equal(ok, TelemetryAuthentication.TryParse(value, out var parsed, out var error));
        Assert.Equal(clientId, parsed);
        Assert.Equal(ok, error is null);
    }

    private static IHost Host(Dictionary<string, string?> settings)
    {
        var builder = Microsoft.Extensions.Hosting.Host.CreateEmptyApplicationBuilder(new HostApplicationBuilderSettings());
        builder.Configuration.AddInMemoryCollection(settings);
        builder.AddPipelineMetrics();
        return builder.Build();
    }
}
