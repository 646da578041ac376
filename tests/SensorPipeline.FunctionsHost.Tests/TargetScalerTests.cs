using System.Globalization;

namespace SensorPipeline.FunctionsHost.Tests;

/// <summary>The target-based scaler: its rule on its own, and a real fleet of instance processes scaled 1 → 4 → 1
/// under load with nothing missing.</summary>
public sealed class TargetScalerTests : IAsyncLifetime
{
    private static readonly TargetScalerOptions Defaults = new();
    private readonly ScaleOutApp _scaleOut = new();

    public Task InitializeAsync() => Task.CompletedTask;

    public async Task DisposeAsync() => await _scaleOut.DisposeAsync();

    [Theory]
    [InlineData(0, 100, 4, 0, false, 1)] // nothing to do: the minimum
    [InlineData(250, 100, 4, 1, false, 4)] // ceil(2.5) = 3, rounded up to a count dividing 4 partitions
    [InlineData(150, 100, 4, 1, false, 2)]
    [InlineData(1_000_000, 100, 32, 1, false, 5)] // capped at +4 per decision
    [InlineData(1_000_000, 100, 32, 5, false, 9)]
    [InlineData(1_000_000, 100, 32, 29, false, 32)] // never more than the partitions
    [InlineData(0, 100, 4, 4, false, 4)] // scale-in waits for the cool-down
    [InlineData(0, 100, 4, 4, true, 1)]
    [InlineData(120, 100, 12, 4, true, 2)] // scale-in to the desired count, not to the minimum
    public void Decide_UnprocessedEvents_FollowsTheTargetRule(long unprocessed, int target, int partitions, int current, bool coolDownOver, int expected) =>
        Assert.Equal(expected, TargetScaler.Decide(unprocessed, target, partitions, current, coolDownOver, Defaults));

    [Theory]
    [InlineData(-1, null, 0)] // never written
    [InlineData(9, null, 10)] // events, no checkpoint: all of them
    [InlineData(9, 4L, 5)]
    [InlineData(9, 9L, 0)]
    [InlineData(9, 12L, 0)] // a checkpoint read after a newer partition property: nothing, never negative
    public void Unprocessed_LastEnqueuedAgainstCheckpoint_CountsAsTheScaleControllerDoes(long lastEnqueued, long? checkpoint, long expected)
    {
        var partition = Azure.Messaging.EventHubs.EventHubsModelFactory.PartitionProperties("input", "0", lastEnqueued < 0, 0, lastEnqueued, "0", DateTimeOffset.UtcNow);
        Assert.Equal(expected, EventHubsBacklog.Unprocessed(partition, checkpoint));
    }

    [Fact]
    public async Task Backlog_ScalesOneToFourAndBackToOne_WithNothingMissing()
    {
        await _scaleOut.StartAsync();
        var app = _scaleOut.App;
        // Slow batches while the fleet scales out: one instance cannot drain the backlog before the new ones (cold starts of
        // 15 s and more on a loaded two-core machine) own partitions; fast once they do.
        app.SetScript("""{"*": {"mode": "ok", "delayMs": 2000}}""");
        var options = new TargetScalerOptions { DecisionInterval = TimeSpan.FromMilliseconds(500), ScaleInCoolDown = TimeSpan.FromSeconds(4) };
        await using var fleet = new InstanceFleet(_scaleOut.Template);
        await using var backlog = new EventHubsBacklog(SensorPipeline.Clients.EventHubsEmulatorAccount.ConnectionString(app.Url!.Port), app.StorageConnection!);
        var scaler = new TargetScaler(app.Url!, fleet, options, app.Http, backlog);
        using var stop = new CancellationTokenSource();
        var observed = new List<int>();
        var loop = Task.Run(async () =>
        {
            // The scaler and the fleet are driven from this one loop (not thread-safe); counts are sampled after each decision.
            while (!stop.IsCancellationRequested)
            {
                await scaler.DecideOnceAsync(stop.Token);
                lock (observed)
                {
                    observed.Add(fleet.Count("Fn"));
                }

                await Task.Delay(options.DecisionInterval, stop.Token);
            }
        });

        try
        {
            await app.WaitUntilAsync(() => Task.FromResult(Count(observed) == 1), "the first instance", seconds: 90);

            // 4 × 300 events at 10 per batch and 2 s a batch: a backlog far over 4 × maxEventBatchSize, and one that one
            // instance needs a minute for, so the new instances take partitions over mid-backlog.
            const int PerPartition = 300;
            await _scaleOut.SendAsync(PerPartition);
            await app.WaitUntilAsync(() => Task.FromResult(Count(observed) == ScaleOutApp.Partitions), "scale-out to one instance per partition", seconds: 120);
            await app.WaitUntilAsync(async () => (await _scaleOut.OwnersAsync()).Values.Where(o => o is not null).Distinct().Count() == ScaleOutApp.Partitions,
                "each of the four instances owning a partition", seconds: 120);
            app.SetScript("""{"*": {"mode": "ok", "delayMs": 50}}""");
            await _scaleOut.WaitAllDeliveredAsync(PerPartition);
            await app.WaitUntilAsync(() => Task.FromResult(Count(observed) == 1), "scale-in to one instance after the cool-down", seconds: 120);

            // The scaler's lists are the loop's (not thread-safe): stop it before reading them.
            await stop.CancelAsync();
            await loop.ContinueWith(_ => { }, TaskScheduler.Default);

            // 0 missing (WaitAllDelivered) and the backlog was served by more than one handler process.
            Assert.True(_scaleOut.Deliveries().Values.SelectMany(pids => pids).Distinct().Count() >= 2, "only one handler process served the backlog");
            Assert.Contains(scaler.Decisions, d => d.Contains("1 to 4 instances", StringComparison.Ordinal));
            Console.WriteLine(string.Join(Environment.NewLine, scaler.Decisions.Concat(fleet.Events)));
        }
        finally
        {
            await stop.CancelAsync();
            await loop.ContinueWith(_ => { }, TaskScheduler.Default);
        }
    }

    private static int Count(List<int> observed)
    {
        lock (observed)
        {
            return observed.Count == 0 ? -1 : observed[^1];
        }
    }
}
