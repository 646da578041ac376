using System.Diagnostics;
using System.Globalization;
using System.Text.Json;

namespace SensorPipeline.FunctionsHost.Tests;

/// <summary>Several Functions-host instances, each its own process with its own handler, against one devhost that
/// serves the hubs (observing: no listeners of its own) and one data directory (checkpoints, ownership records).
/// Intervals are short (cycle 200 ms, expiration 3 s) so each test takes seconds.</summary>
public sealed class ScaleOutTests : IAsyncLifetime
{
    private const int Partitions = 4;
    private const int BatchSize = 10;
    private static readonly TimeSpan Expiration = TimeSpan.FromSeconds(3);
    private readonly TestApp _app = new(hostJsonExtensions: $$"""{"maxEventBatchSize": {{BatchSize}}}""");
    private readonly List<DevHostProcess> _instances = [];

    public async Task InitializeAsync()
    {
        File.WriteAllText(Path.Combine(_app.Root, "eventhubs.emulator.json"), """
            {"UserConfig": {"NamespaceConfig": [{"Type": "EventHub", "Name": "testNs", "Entities": [
              {"Name": "input", "PartitionCount": "PARTITIONS", "ConsumerGroups": [{"Name": "fn"}]},
              {"Name": "output", "PartitionCount": "2", "ConsumerGroups": [{"Name": "reader"}]}
            ]}], "LoggingConfig": {"Type": "File"}}}
            """.Replace("PARTITIONS", Partitions.ToString(CultureInfo.InvariantCulture), StringComparison.Ordinal));
        _app.ExtraSettings.AddRange(["FunctionsHost:ObserveOnly=true", "FunctionsHost:ObserveInterval=00:00:00.100"]);
        Assert.Null(await _app.StartAsync());
    }

    public async Task DisposeAsync()
    {
        foreach (var instance in _instances)
        {
            await instance.DisposeAsync();
        }

        await _app.DisposeAsync();
    }

    private async Task<DevHostProcess> StartInstanceAsync(string id)
    {
        var instance = await DevHostProcess.StartInstanceAsync(new DevHostInstanceStart
        {
            DevHost = _app.Url!,
            AppRoot = _app.Root,
            DataDirectory = _app.Data,
            InstanceId = id,
            Settings =
            [
                "FunctionsHost:LoadBalancingUpdateInterval=00:00:00.200",
                "FunctionsHost:PartitionOwnershipExpirationInterval=" + Expiration.ToString("c", CultureInfo.InvariantCulture),
                "FunctionsHost:IdleReadWait=00:00:00.200",
            ],
            StartTimeout = TimeSpan.FromSeconds(90),
        });
        _instances.Add(instance);
        return instance;
    }

    /// <summary>Owner per partition as the observing devhost reports it (null: none active).</summary>
    private async Task<Dictionary<string, string?>> OwnersAsync()
    {
        var status = await _app.StatusAsync();
        var fn = status.GetProperty("functions").EnumerateArray().Single();
        return fn.GetProperty("partitions").EnumerateArray().ToDictionary(
            p => p.GetProperty("partitionId").GetString()!,
            p => p.GetProperty("owner").ValueKind == JsonValueKind.Null ? null : p.GetProperty("owner").GetString());
    }

    private async Task WaitBalancedAsync(params string[] owners)
    {
        await _app.WaitUntilAsync(async () =>
        {
            var current = await OwnersAsync();
            return current.Values.All(o => o is not null && owners.Contains(o))
                && owners.All(o => current.Values.Count(v => v == o) == Partitions / owners.Length);
        }, $"every partition owned, {Partitions / owners.Length} by each of {string.Join(", ", owners)}", seconds: 60);
    }

    private async Task SendAsync(int perPartition, int from = 0)
    {
        for (var p = 0; p < Partitions; p++)
        {
            var bodies = Enumerable.Range(from, perPartition).Select(i => $"p{p}-{i}").ToArray();
            await _app.SendAsync("input", p.ToString(CultureInfo.InvariantCulture), bodies);
        }
    }

    // (partition, sequence number) → how many times a handler was invoked with it, and by which handler pids.
    private Dictionary<(string Partition, long Sequence), List<int>> Deliveries()
    {
        var deliveries = new Dictionary<(string, long), List<int>>();
        foreach (var record in _app.Records().Where(r => r.Url.EndsWith("/Fn", StringComparison.Ordinal)))
        {
            foreach (var sequence in record.SequenceNumbers)
            {
                (deliveries.TryGetValue((record.PartitionId, sequence), out var pids) ? pids : deliveries[(record.PartitionId, sequence)] = []).Add(record.Pid);
            }
        }

        return deliveries;
    }

    private Task WaitAllDeliveredAsync(int perPartition) => _app.WaitForRecordsAsync(_ =>
    {
        var delivered = Deliveries();
        return Enumerable.Range(0, Partitions).All(p => Enumerable.Range(0, perPartition).All(s => delivered.ContainsKey((p.ToString(CultureInfo.InvariantCulture), s))));
    }, $"every one of {Partitions} × {perPartition} events delivered", seconds: 90);

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
    public async Task InstanceKilledWhileOwning_ItsPartitionsAreOwnedAgain_NothingMissing_DuplicatesBoundedByInFlight()
    {
        _app.SetScript("""{"*": {"mode": "ok", "delayMs": 40}}""");
        await StartInstanceAsync("a");
        var victim = await StartInstanceAsync("b");
        await WaitBalancedAsync("a", "b");
        var moved = (await OwnersAsync()).Where(o => o.Value == "b").Select(o => o.Key).ToHashSet();

        // A backlog, so the victim is mid-batch on its partitions when it dies.
        const int PerPartition = 200;
        await SendAsync(PerPartition);
        await _app.WaitForRecordsAsync(_ => Deliveries().Keys.Count(k => moved.Contains(k.Partition)) >= 2 * BatchSize, "the victim processing its partitions");

        var killed = Stopwatch.StartNew();
        await victim.Process.KillAsync(entireProcessTree: true); // kill -9 of the instance and its handler
        await _app.WaitUntilAsync(async () => (await OwnersAsync()).Values.All(o => o == "a"), "the survivor owning every partition", seconds: 60);
        var takeover = killed.Elapsed;

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
