namespace SensorPipeline.EndToEnd.Tests;

/// <summary>
/// What a user gets from stopping <c>./pipeline up</c> and starting it again (it always runs on <c>.pipeline/up</c>):
/// the stack restarted on the same data directory still has every reading the first run stored — the Cosmos DB
/// emulator's log and devhost's checkpoints both live there — and new readings still flow.
/// </summary>
[Collection(StackCollections.Readings)]
public sealed class RestartTests : IDisposable
{
    private readonly TempDirectory _data = new("sensorpipeline-restart-");

    [Fact]
    public async Task StackRestartedOnItsDataDirectory_KeepsEveryReading_AndNewReadingsStillFlow()
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(5));
        // A max age far beyond the test: every reading goes to the live view, none is archived as stale.
        var options = new StackOptions { DataDirectory = _data.Path, DatabaseName = "restart", MaxAge = TimeSpan.FromHours(1) };
        var before = Path.Combine(_data.Path, "ledger-before.json");
        long writtenBefore;
        IReadOnlyDictionary<string, long?> checkpoints;
        await using (var first = await LocalPipeline.StartAsync(RepoLayout.Discover(), options, timeout.Token))
        {
            await SendAsync(first, before, "before", timeout.Token);
            await first.WaitForDrainAsync(TimeSpan.FromMinutes(3), TimeSpan.FromMilliseconds(500), timeout.Token);
            var (exit, verdict) = await Demo.VerifyAsync(first, before, Path.Combine(_data.Path, "verdict-first.json"), timeout.Token);
            AssertComplete(exit, verdict, "first run");
            writtenBefore = verdict.GetProperty("written").GetInt64();
            checkpoints = Checkpoints(await first.GetFunctionsStatusAsync(timeout.Token));
        }

        await using var second = await LocalPipeline.StartAsync(RepoLayout.Discover(), options, timeout.Token);
        var (keptExit, kept) = await Demo.VerifyAsync(second, before, Path.Combine(_data.Path, "verdict-kept.json"), timeout.Token);
        AssertComplete(keptExit, kept, "after the restart, the first run's readings");
        Assert.Equal(writtenBefore, kept.GetProperty("written").GetInt64());

        // The checkpoints survived in the data directory's storage: the restarted processors resumed after them, so not
        // one event of the first run was delivered again (a lost checkpoint restarts a partition at its first event).
        var resumed = await second.GetFunctionsStatusAsync(timeout.Token);
        Assert.Equal(checkpoints, Checkpoints(resumed));
        Assert.All(resumed.Functions, f => Assert.True(f.InvocationsSucceeded + f.InvocationsFailed == 0,
            $"{f.Name}: {f.InvocationsSucceeded + f.InvocationsFailed} invocations after the restart, before any new event"));

        var after = Path.Combine(_data.Path, "ledger-after.json");
        await SendAsync(second, after, "after", timeout.Token);
        await second.WaitForDrainAsync(TimeSpan.FromMinutes(3), TimeSpan.FromMilliseconds(500), timeout.Token);
        var (freshExit, fresh) = await Demo.VerifyAsync(second, after, Path.Combine(_data.Path, "verdict-fresh.json"), timeout.Token);
        AssertComplete(freshExit, fresh, "after the restart, new readings");
    }

    /// <summary>1,000 readings from 20 devices whose ids start with <paramref name="prefix"/> (so the runs never share
    /// a document), with a ledger for verify.</summary>
    internal static async Task SendAsync(LocalPipeline pipeline, string ledger, string prefix, CancellationToken cancellationToken)
    {
        await using var loadgen = ChildProcess.Start(new ChildProcessOptions
        {
            Name = "loadgen",
            FileName = "dotnet",
            Arguments =
            [
                pipeline.Layout.LoadGenDll, "--connection", pipeline.EventHubConnection, "--count", "1000", "--rate", "1000",
                "--weather", "10", "--seismic", "10", "--readings-per-event", "20", "--device-prefix", prefix, "--ledger", ledger,
            ],
            LogPath = Path.Combine(pipeline.Options.DataDirectory, "logs", string.Create(CultureInfo.InvariantCulture, $"loadgen-{prefix}.log")),
            WorkingDirectory = pipeline.Layout.Root,
        });
        var exit = await loadgen.WaitForExitAsync(cancellationToken);
        Assert.True(exit == 0, $"loadgen exited {exit}:\n{loadgen.Output}");
    }

    /// <summary>Each function's partitions' checkpoints, by "function/partition".</summary>
    private static SortedDictionary<string, long?> Checkpoints(FunctionsStatus status) =>
        new(status.Functions.SelectMany(f => f.Partitions.Select(p => (Key: $"{f.Name}/{p.PartitionId}", p.CheckpointSequenceNumber)))
            .ToDictionary(c => c.Key, c => c.CheckpointSequenceNumber), StringComparer.Ordinal);

    private static void AssertComplete(int exit, JsonElement verdict, string what)
    {
        Assert.True(exit == 0, $"{what}: verify exited {exit}: {verdict}");
        Assert.Equal(1000, verdict.GetProperty("sent").GetInt64());
        Assert.Equal(1000, verdict.GetProperty("written").GetInt64());
        Assert.Equal(0, verdict.GetProperty("missing").GetInt64());
        Assert.Equal(0, verdict.GetProperty("duplicated").GetInt64());
        Assert.Equal(0, verdict.GetProperty("deviceMismatches").GetInt32());
    }

    public void Dispose() => _data.Dispose();
}
