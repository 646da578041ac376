using System.Diagnostics;

namespace SensorPipeline.Functions.Tests;

/// <summary>
/// A stand-in of its own, frozen with SIGSTOP (never killed: it keeps data only in memory) and thawed with SIGCONT;
/// the handler is configured with short store timeouts so the failure shows within seconds (not so short that a loaded machine fails the calls that should pass). The splitter reads its hubs'
/// partitions before it splits: a real Event Hubs emulator of its own, so only the store is out.
/// </summary>
public sealed class OutageFixture() : SingleHandlerFixture("outage", withHubs: true)
{
    internal override Task ConfigureAsync(CosmosEmulatorProcess standIn, Dictionary<string, string?> settings)
    {
        // Short enough that a frozen store fails an invocation well within the test's 30 s, long enough that a thawed
        // one on a loaded machine answers the re-run (a 1 s timeout failed re-runs at load ~20).
        settings["Cosmos__OperationTimeout"] = "00:00:05";
        ShortRetries(settings, 1, maxDelay: "00:00:00.100");
        return Task.CompletedTask;
    }
}

public sealed class StoreOutageTests(OutageFixture fixture) : IClassFixture<OutageFixture>
{
    [Fact]
    public async Task WeatherProcessor_StoreFrozen_FailsNon2xxAndTheRerunWritesEverything()
    {
        var device = Builders.Device("ws");
        var envelope = PipelineDriver.WeatherEnvelope(
            PipelineDriver.Ingestion(Builders.Batch([.. Enumerable.Range(1, 20).Select(i => Builders.Weather(device, (ulong)i))])));

        InvocationAnswer failed;
        var clock = Stopwatch.StartNew();
        fixture.StandIn.Freeze();
        try
        {
            failed = await PipelineDriver.ProcessAsync(fixture.Handler, "WeatherProcessor", [envelope]);
        }
        finally
        {
            fixture.StandIn.Thaw();
        }

        Assert.Equal(HttpStatusCode.InternalServerError, failed.Status);
        Assert.Contains("after 2 attempt(s)", failed.LogText, StringComparison.Ordinal);
        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(30), $"took {clock.Elapsed}");

        // The host's retry policy re-runs the same batch until it succeeds; the thawed stand-in may still be working
        // through its backlog, so a re-run can fail again, as it could in Azure.
        var rerun = await RetryLikeTheHostAsync(retry => PipelineDriver.ProcessAsync(fixture.Handler, "WeatherProcessor", [envelope], retryCount: retry));

        Assert.True(rerun.Status == HttpStatusCode.OK, rerun.LogText);
        Assert.Equal(20, (await fixture.Store.IdsAsync("readings", device)).Distinct().Count());
        var state = await fixture.Store.ReadAsync("devices", device, device);
        Assert.Equal(20UL, state?.GetProperty("properties").GetProperty("sequence").GetUInt64());
    }

    [Fact]
    public async Task Splitter_StoreFrozenWithADeadLetterToWrite_FailsNon2xxAndTheRerunStoresIt()
    {
        var poison = PipelineDriver.Ingestion([0xFF, 0x00]);

        InvocationAnswer failed;
        fixture.StandIn.Freeze();
        try
        {
            failed = await PipelineDriver.SplitAsync(fixture.Handler, [poison]);
        }
        finally
        {
            fixture.StandIn.Thaw();
        }

        Assert.Equal(HttpStatusCode.InternalServerError, failed.Status);
        Assert.False(failed.Body.GetProperty("Outputs").EnumerateObject().Any());

        var rerun = await RetryLikeTheHostAsync(_ => PipelineDriver.SplitAsync(fixture.Handler, [poison]));

        Assert.Equal(HttpStatusCode.OK, rerun.Status);
        var id = $"splitter:0:{poison.SequenceNumber}";
        Assert.Equal("undecodable", (await fixture.Store.ReadAsync("deadletters", id, id))?.GetProperty("reason").GetString());
    }

    /// <summary>Re-runs an invocation as the host's retry policy does (a fixed 500 ms apart, bounded), until it answers 200.</summary>
    private static Task<InvocationAnswer> RetryLikeTheHostAsync(Func<int, Task<InvocationAnswer>> invoke)
    {
        var retry = 0;
        return Eventually.ValueAsync(() => invoke(++retry), answer => answer.Status == HttpStatusCode.OK, "a re-run answering 200",
            TimeSpan.FromMinutes(2), TimeSpan.FromMilliseconds(500));
    }
}
