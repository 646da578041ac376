using System.Diagnostics;
using System.Globalization;
using SensorPipeline.Testing;

namespace SensorPipeline.FunctionsHost.Tests;

/// <summary>Two instance processes sharing four partitions, each consuming with the SDK's event processor, ownership
/// and checkpoints as blobs on the app's azurite: the split, and a kill -9 of one while it owns some.</summary>
public sealed class ScaleOutTests : IAsyncLifetime
{
    private const int Partitions = ScaleOutApp.Partitions;
    private const int BatchSize = ScaleOutApp.BatchSize;
    private static readonly TimeSpan Expiration = ScaleOutApp.Expiration;
    private readonly ScaleOutApp _scaleOut = new();

    private TestApp App => _scaleOut.App;

    public Task InitializeAsync() => _scaleOut.StartAsync();

    public async Task DisposeAsync() => await _scaleOut.DisposeAsync();

    private Task<DevHostProcess> StartInstanceAsync(string id) => _scaleOut.StartInstanceAsync(id);

    private Task<Dictionary<string, string?>> OwnersAsync() => _scaleOut.OwnersAsync();

    private Task WaitBalancedAsync(params string[] owners) => _scaleOut.WaitBalancedAsync(owners);

    private Task SendAsync(int perPartition) => _scaleOut.SendAsync(perPartition);

    private Dictionary<(string Partition, long Sequence), List<int>> Deliveries() => _scaleOut.Deliveries();

    private Task WaitAllDeliveredAsync(int perPartition) => _scaleOut.WaitAllDeliveredAsync(perPartition);

    [Fact]
    public async Task TwoInstances_SplitThePartitionsEvenly_AndEachPartitionHasOneHandler()
    {
        await StartInstanceAsync("a");
        await StartInstanceAsync("b");
        await WaitBalancedAsync("a", "b");

        await SendAsync(30);
        await WaitAllDeliveredAsync(30);

        // Steady ownership: every event once, and each partition served by one handler process.
        var deliveries = Deliveries();
        Assert.All(deliveries, d => Assert.Single(d.Value));
        var handlersPerPartition = deliveries.GroupBy(d => d.Key.Partition).ToDictionary(g => g.Key, g => g.SelectMany(d => d.Value).Distinct().Count());
        Assert.All(handlersPerPartition.Values, count => Assert.Equal(1, count));
        Assert.Equal(2, deliveries.Values.SelectMany(p => p).Distinct().Count());
    }

    [Fact]
    public async Task Kill_InstanceOwningPartitions_SurvivorTakesOverLosingNothing()
    {
        App.SetScript("""{"*": {"mode": "ok", "delayMs": 40}}""");
        await StartInstanceAsync("a");
        var victim = await StartInstanceAsync("b");
        await WaitBalancedAsync("a", "b");
        var moved = (await OwnersAsync()).Where(o => o.Value == "b").Select(o => o.Key).ToHashSet();

        // A backlog, so the victim is mid-batch on its partitions when it dies.
        const int PerPartition = 200;
        await SendAsync(PerPartition);
        await App.WaitForRecordsAsync(_ => Deliveries().Keys.Count(k => moved.Contains(k.Partition)) >= 2 * BatchSize, "the victim processing its partitions");

        var killed = Stopwatch.StartNew();
        await victim.Process.KillAsync(entireProcessTree: true); // kill -9 of the instance and its handler
        await App.WaitUntilAsync(async () => (await OwnersAsync()).Values.All(o => o == "a"), "the survivor owning every partition", seconds: 60);
        var takeover = killed.Elapsed;

        // The history the dashboard draws: two instances, then one; b's partitions moved to a after b's last bin.
        var history = default(JsonElement);
        await App.WaitUntilAsync(async () =>
        {
            history = await _scaleOut.OwnershipHistoryAsync();
            var owners = history.GetProperty("currentOwners");
            return owners.GetArrayLength() == Partitions && owners.EnumerateArray().All(o => o.GetString() == "a");
        }, "the ownership history's latest sample showing a owning every partition", seconds: 30);
        var legend = history.GetProperty("owners").EnumerateArray().Select(o => o.GetString()).ToList();
        var bins = history.GetProperty("bins").EnumerateArray().ToList();
        // A bin shows its last sample's owners: the baseline is the last bin in which b still held every partition it
        // lost. b's records expire one by one, so a bin can end with one of them moved and the other not yet; every move
        // of b's partitions is counted after the baseline.
        var b = legend.IndexOf("b");
        var lastAllB = bins.FindLastIndex(bin =>
        {
            var owners = bin.GetProperty("owners").EnumerateArray().Select(o => o.GetInt32()).ToList();
            return moved.All(p => owners[int.Parse(p, CultureInfo.InvariantCulture)] == b);
        });
        Assert.True(lastAllB >= 0, $"no bin shows b owning its partitions: {history}");
        Assert.Contains(bins.Take(lastAllB + 1), bin => bin.GetProperty("instancesMax").GetInt32() == 2);
        Assert.Equal(1, history.GetProperty("instances").GetInt32());
        Assert.InRange(bins.Skip(lastAllB + 1).Sum(bin => bin.GetProperty("changes").GetInt64()), moved.Count, long.MaxValue);
        Assert.Equal(history.GetProperty("ownershipChanges").GetInt64(), bins[^1].GetProperty("cumulativeChanges").GetInt64());

        await WaitAllDeliveredAsync(PerPartition);
        var deliveries = Deliveries();
        var duplicates = deliveries.Where(d => d.Value.Count > 1).GroupBy(d => d.Key.Partition).ToDictionary(g => g.Key, g => g.Sum(d => d.Value.Count - 1));

        // 0 missing (WaitAllDelivered), nothing doubled on the partitions that did not move, and on each moved one at
        // most the batch in flight when the victim died: one invocation per partition at a time, maxEventBatchSize
        // events, checkpointed after each batch.
        Assert.All(duplicates.Keys, p => Assert.Contains(p, moved));
        Assert.All(duplicates.Values, count => Assert.InRange(count, 1, BatchSize));
        Console.WriteLine($"takeover after kill: {takeover.TotalSeconds:0.0} s (expiration {Expiration.TotalSeconds} s); duplicates per moved partition: " +
            string.Join(", ", moved.Order().Select(p => $"{p}={duplicates.GetValueOrDefault(p)}")));
    }
}
