using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace SensorPipeline.Telemetry.Tests;

/// <summary>
/// A devhost-like web server on a free loopback port hosting exactly what devhost hosts for telemetry
/// (AddTelemetryIngestion + MapTelemetryEndpoints), with real Kestrel sockets so the real SDK can post to it.
/// </summary>
public sealed class TelemetryServer : IAsyncDisposable
{
    private readonly WebApplication _app;

    private TelemetryServer(WebApplication app, Uri url)
    {
        _app = app;
        Url = url;
    }

    public Uri Url { get; }

    public HttpClient Http { get; } = new() { Timeout = TimeSpan.FromSeconds(30) };

    /// <summary>The connection string the handler gets locally: the SDK posts to {Url}v2/track.</summary>
    public string ConnectionString => $"InstrumentationKey=00000000-0000-0000-0000-000000000001;IngestionEndpoint={Url}";

    public static async Task<TelemetryServer> StartAsync(Action<WebApplication>? mapMore = null, IDictionary<string, string?>? settings = null)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.WebHost.ConfigureKestrel(k => k.Listen(IPAddress.Loopback, 0));
        builder.Logging.SetMinimumLevel(LogLevel.Warning);
        if (settings is not null)
        {
            builder.Configuration.AddInMemoryCollection(settings);
        }

        builder.AddTelemetryIngestion();
        var app = builder.Build();
        app.MapTelemetryEndpoints();
        mapMore?.Invoke(app);
        await app.StartAsync();
        var address = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First();
        return new TelemetryServer(app, new Uri(address.TrimEnd('/') + "/"));
    }

    public Uri At(string relative) => new(Url, relative);

    public async Task<TelemetrySummary> SummaryAsync() =>
        (await Http.GetFromJsonAsync<TelemetrySummary>(At("telemetry/summary?window=3600&bin=5")))!;

    /// <summary>Polls the summary until <paramref name="done"/> holds (bounded: 20 s), and returns that summary.</summary>
    public Task<TelemetrySummary> WaitForAsync(Func<TelemetrySummary, bool> done) =>
        Eventually.ValueAsync(SummaryAsync, done, "the telemetry summary", TimeSpan.FromSeconds(20), TimeSpan.FromMilliseconds(100));

    /// <summary>Polls /telemetry/metrics until points of one metric arrived (bounded: 20 s).</summary>
    public Task<List<System.Text.Json.JsonElement>> WaitForPointsAsync(string name) =>
        Eventually.ValueAsync(
            async () =>
            {
                var body = await Http.GetFromJsonAsync<System.Text.Json.JsonElement>(At("telemetry/metrics?name=" + Uri.EscapeDataString(name)));
                return body.GetProperty("points").EnumerateArray().ToList();
            },
            points => points.Count > 0, $"points of {name}", TimeSpan.FromSeconds(60), TimeSpan.FromMilliseconds(100));

    public async ValueTask DisposeAsync()
    {
        Http.Dispose();
        await _app.StopAsync();
        await _app.DisposeAsync();
    }
}
