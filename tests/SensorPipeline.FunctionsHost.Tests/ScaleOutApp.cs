using System.Diagnostics;
using System.Globalization;

namespace SensorPipeline.FunctionsHost.Tests;

/// <summary>A function app for several Functions-host instances, each its own process with its own handler and SDK
/// event processor, against one devhost that serves the hubs (observing: no processors of its own) and the app's
/// azurite (ownership and checkpoint blobs). Intervals are short (cycle 200 ms, expiration 3 s) so each test takes
/// seconds.</summary>
public sealed class ScaleOutApp : IAsyncDisposable
{
    public const int Partitions = 4;
    public const int BatchSize = 10;
    public static readonly TimeSpan Expiration = TimeSpan.FromSeconds(3);
    private readonly Dictionary<string, DevHostProcess> _instances = [];

    public TestApp App { get; } = new(hostJsonExtensions: $$"""{"maxEventBatchSize": {{BatchSize}}}""");

    /// <summary>What <c>devhost instance</c> gets besides its id and function.</summary>
    public DevHostInstanceStart Template => new()
    {
        DevHost = App.Url!,
        AppRoot = App.Root,
        DataDirectory = App.Data,
        InstanceId = "template",
        Settings =
        [
            "FunctionsHost:LoadBalancingUpdateInterval=00:00:00.200",
            "FunctionsHost:PartitionOwnershipExpirationInterval=" + Expiration.ToString("c", CultureInfo.InvariantCulture),
        ],
        StartTimeout = TimeSpan.FromSeconds(90),
    };

    public async Task StartAsync()
    {
        File.WriteAllText(Path.Combine(App.Root, "eventhubs.emulator.json"), """
            {"UserConfig": {"NamespaceConfig": [{"Type": "EventHub", "Name": "testNs", "Entities": [
              {"Name": "input", "PartitionCount": "PARTITIONS", "ConsumerGroups": [{"Name": "fn"}]},
              {"Name": "output", "PartitionCount": "2", "ConsumerGroups": [{"Name": "reader"}]}
            ]}], "LoggingConfig": {"Type": "File"}}}
            """.Replace("PARTITIONS", Partitions.ToString(CultureInfo.InvariantCulture), StringComparison.Ordinal));
        App.ExtraSettings.AddRange(["FunctionsHost:ObserveOnly=true", "FunctionsHost:ObserveInterval=00:00:00.100"]);
        Assert.Null(await App.StartAsync());
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var instance in _instances.Values)
        {
            await instance.DisposeAsync();
        }

        await App.DisposeAsync();
    }

    public async Task<DevHostProcess> StartInstanceAsync(string id)
    {
        var instance = await DevHostProcess.StartInstanceAsync(Template with { InstanceId = id });
        _instances.Add(id, instance);
        return instance;
    }

    /// <summary>Owner per partition as the observing devhost reports it (null: none active).</summary>
    public async Task<Dictionary<string, string?>> OwnersAsync()
    {
        return PartitionsOfFn(await App.StatusAsync()).ToDictionary(
            p => p.GetProperty("partitionId").GetString()!,
            p => p.GetProperty("owner").ValueKind == JsonValueKind.Null ? null : p.GetProperty("owner").GetString());
    }

    /// <summary>The observing devhost's ownership history of Fn (<c>/status/functions/ownership</c>) in 1 s bins.</summary>
    public async Task<JsonElement> OwnershipHistoryAsync()
    {
        using var document = JsonDocument.Parse(await App.Http.GetStringAsync(App.At("status/functions/ownership?window=600&bin=1")));
        Assert.True(document.RootElement.GetProperty("recording").GetBoolean());
        return document.RootElement.GetProperty("functions").EnumerateArray().Single().Clone();
    }

    /// <summary>
    /// Waits until the ownership records split the partitions evenly among <paramref name="owners"/> and each of them
    /// (alive) says it owns exactly its share: an instance whose partition was just stolen keeps listening until its
    /// next cycle finds the record changed, so the records alone do not yet mean one reader per partition.
    /// </summary>
    public async Task WaitBalancedAsync(params string[] owners)
    {
        await App.WaitUntilAsync(async () =>
        {
            var current = await OwnersAsync();
            if (!current.Values.All(o => o is not null && owners.Contains(o)) || !owners.All(o => current.Values.Count(v => v == o) == Partitions / owners.Length))
            {
                return false;
            }

            foreach (var owner in owners.Where(_instances.ContainsKey))
            {
                var assigned = current.Where(c => c.Value == owner).Select(c => c.Key).ToHashSet();
                if (!(await OwnedHereAsync(_instances[owner])).SetEquals(assigned))
                {
                    return false;
                }
            }

            return true;
        }, $"every partition owned, {Partitions / owners.Length} by each of {string.Join(", ", owners)}, as each of them sees it", seconds: 60);
    }

    /// <summary>The partitions an instance says it owns (its own <c>/status/functions</c>).</summary>
    private async Task<HashSet<string>> OwnedHereAsync(DevHostProcess instance)
    {
        using var document = JsonDocument.Parse(await App.Http.GetStringAsync(new Uri(instance.BaseAddress, "status/functions")));
        return PartitionsOfFn(document.RootElement).Where(p => p.GetProperty("ownedHere").GetBoolean()).Select(p => p.GetProperty("partitionId").GetString()!).ToHashSet();
    }

    /// <summary>Fn's partitions in a <c>/status/functions</c> answer (the app has that one function).</summary>
    private static JsonElement.ArrayEnumerator PartitionsOfFn(JsonElement status) =>
        status.GetProperty("functions").EnumerateArray().Single().GetProperty("partitions").EnumerateArray();

    public async Task SendAsync(int perPartition, int from = 0)
    {
        for (var p = 0; p < Partitions; p++)
        {
            var bodies = Enumerable.Range(from, perPartition).Select(i => $"p{p}-{i}").ToArray();
            await App.SendAsync("input", p.ToString(CultureInfo.InvariantCulture), bodies);
        }
    }

    /// <summary>(partition, sequence number) → the handler pids invoked with it, once per delivery.</summary>
    public Dictionary<(string Partition, long Sequence), List<int>> Deliveries()
    {
        var deliveries = new Dictionary<(string, long), List<int>>();
        foreach (var record in App.Records().Where(r => r.Url.EndsWith("/Fn", StringComparison.Ordinal)))
        {
            foreach (var sequence in record.SequenceNumbers)
            {
                (deliveries.TryGetValue((record.PartitionId, sequence), out var pids) ? pids : deliveries[(record.PartitionId, sequence)] = []).Add(record.Pid);
            }
        }

        return deliveries;
    }

    public Task WaitAllDeliveredAsync(int perPartition) => App.WaitForRecordsAsync(_ =>
    {
        var delivered = Deliveries();
        return Enumerable.Range(0, Partitions).All(p => Enumerable.Range(0, perPartition).All(s => delivered.ContainsKey((p.ToString(CultureInfo.InvariantCulture), s))));
    }, $"every one of {Partitions} × {perPartition} events delivered", seconds: 120);
}
