namespace SensorPipeline.EndToEnd.Tests;

/// <summary>
/// The demo, short: readings in through the Event Hubs REST API, documents out in Cosmos DB, every reading checked
/// by point reads. One class, so the two runs never share the machine's two cores.
/// </summary>
[Collection(StackCollections.Readings)]
public sealed class FullChainTests : IDisposable
{
    private readonly TempDirectory _data = new("sensorpipeline-e2e-");

    private static DemoOptions Short(TimeSpan? pauseAfter = null) => new()
    {
        // The max age leaves room for a loaded CI machine (this test runs beside another stack's): at 4 s every reading
        // of a fresh-clone run went stale. The pause still outlasts it, so the backlog really archives. The steady phase
        // before the pause is 8 s: with 3 s, a loaded CI run's chain was still warming up through it, and with the
        // backlog's drain past the max age too, no reading reached the live view.
        Duration = TimeSpan.FromSeconds(25),
        Rate = 600,
        DevicesPerKind = 20,
        MaxAge = TimeSpan.FromSeconds(10),
        PauseAfter = pauseAfter ?? TimeSpan.FromSeconds(8),
        PauseFor = TimeSpan.FromSeconds(14),
        Poison = 2,
        Oversize = 1,
        DuplicateEvery = 25,
    };

    [Fact]
    public async Task Demo_PoisonDuplicatesAndBacklog_EveryReadingAccountedFor()
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(6));
        var options = Short();
        await using var pipeline = await LocalPipeline.StartAsync(RepoLayout.Discover(),
            new StackOptions { DataDirectory = _data.Path, MaxAge = options.MaxAge, DatabaseName = "e2e" }, timeout.Token);

        var result = await Demo.RunAsync(pipeline, options, TextWriter.Null, timeout.Token);

        var verdict = result.Verdict;
        Assert.Equal(0, result.LoadGenExitCode);
        Assert.Equal(0, verdict.GetProperty("missing").GetInt64());
        Assert.Equal(0, verdict.GetProperty("duplicated").GetInt64());
        Assert.Equal(0, verdict.GetProperty("deviceMismatches").GetInt32());
        Assert.Equal(3, verdict.GetProperty("injectedSent").GetInt32());
        Assert.Equal(3, verdict.GetProperty("deadLettered").GetInt32());
        // The backlog episode outlived the max age, so some readings really went to the archive — and the rest live.
        Assert.True(verdict.GetProperty("archived").GetInt64() > 0, "no stale reading was archived");
        Assert.True(verdict.GetProperty("written").GetInt64() > 0, "no reading reached the live view");
        Assert.Equal(verdict.GetProperty("sent").GetInt64(), verdict.GetProperty("written").GetInt64() + verdict.GetProperty("archived").GetInt64());
        Assert.Equal(0, result.VerifyExitCode);

        // Telemetry saw the same run: stale counts, dead letters and end-to-end latencies arrived at devhost.
        var functions = result.Telemetry.GetProperty("functions").EnumerateArray().ToDictionary(f => f.GetProperty("function").GetString()!);
        var stale = functions["WeatherProcessor"].GetProperty("staleReadings").GetInt64() + functions["SeismicProcessor"].GetProperty("staleReadings").GetInt64();
        Assert.True(stale >= verdict.GetProperty("archived").GetInt64(), $"telemetry counted {stale} stale readings, verify found {verdict.GetProperty("archived")} archived");
        Assert.True(functions["Splitter"].GetProperty("deadLetters").GetInt64() >= 3);
        Assert.True(functions["WeatherProcessor"].GetProperty("endToEnd").GetProperty("count").GetInt64() > 0);

        // The latency rows: the steady state and the backlog episode apart, together covering every document written.
        Assert.Contains(result.Phases, p => p.Phase.Name == DemoPhases.Backlog);
        Assert.Equal(DemoPhases.Before, result.Phases[0].Phase.Name);
        var written = functions.Values.Sum(f => f.GetProperty("documentsWritten").GetInt64());
        var covered = result.Phases.Sum(p => p.Telemetry.GetProperty("functions").EnumerateArray().Sum(f => f.GetProperty("documentsWritten").GetInt64()));
        Assert.Equal(written, covered);
        // verify judged every archived reading against the episode (the count itself depends on the machine's speed).
        Assert.Equal(JsonValueKind.Number, verdict.GetProperty("staleOutsideEpisodes").ValueKind);
        Assert.Single(result.Ledger.GetProperty("pauses").EnumerateArray());
    }

    [Fact]
    public async Task CosmosFrozenMidRun_BatchesFailAndRetry_NothingLost()
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(6));
        var options = Short(pauseAfter: TimeSpan.Zero);
        // Short in-invocation patience, so the outage outlasts it and the host's retry policy has to re-run batches.
        var impatient = new Dictionary<string, string>
        {
            ["Cosmos__OperationTimeout"] = "00:00:05", // 2 s failed a thawed store's calls at load ~20
            ["Pipeline__TransientRetryCount"] = "1",
            ["Pipeline__TransientRetryMaxDelay"] = "00:00:01",
        };
        await using var pipeline = await LocalPipeline.StartAsync(RepoLayout.Discover(),
            new StackOptions { DataDirectory = _data.Path, DatabaseName = "e2e", Environment = impatient }, timeout.Token);

        // The stand-in keeps data only in memory: freeze it (SIGSTOP), never kill it. Frozen once the processors are
        // writing, thawed once each of them has had an invocation fail on it (the host's retry policy re-runs those).
        string[] processors = ["WeatherProcessor", "SeismicProcessor"];
        var freeze = Task.Run(async () =>
        {
            await Eventually.UntilAsync(async token => (await pipeline.GetFunctionsStatusAsync(token)).Functions
                    .Where(f => processors.Contains(f.Name)).Sum(f => f.InvocationsSucceeded) > 0,
                "the processors' first committed invocation", TimeSpan.FromMinutes(2), TimeSpan.FromMilliseconds(100), cancellationToken: timeout.Token);
            pipeline.Cosmos.Freeze();
            try
            {
                await Eventually.UntilAsync(async token => (await pipeline.GetFunctionsStatusAsync(token)).Functions
                        .Where(f => processors.Contains(f.Name)).All(f => f.InvocationsFailed > 0),
                    "an invocation of each processor failing on the frozen store", TimeSpan.FromMinutes(2), TimeSpan.FromMilliseconds(100), cancellationToken: timeout.Token);
            }
            finally
            {
                pipeline.Cosmos.Thaw();
            }
        }, timeout.Token);
        var result = await Demo.RunAsync(pipeline, options, TextWriter.Null, timeout.Token);
        await freeze;

        var status = await pipeline.GetFunctionsStatusAsync(timeout.Token);
        var failed = status.Functions.Sum(f => f.InvocationsFailed);
        Assert.True(failed > 0, "no invocation failed while Cosmos DB was frozen: the test did not exercise the outage");
        Assert.Equal(0, result.Verdict.GetProperty("missing").GetInt64());
        Assert.Equal(0, result.Verdict.GetProperty("duplicated").GetInt64());
        Assert.Equal(0, result.Verdict.GetProperty("deviceMismatches").GetInt32());
        Assert.True(result.Passed);
    }

    public void Dispose() => _data.Dispose();
}
