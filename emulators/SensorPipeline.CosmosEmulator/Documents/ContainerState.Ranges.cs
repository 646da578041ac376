using System.Collections.Concurrent;
using SensorPipeline.Core.Partitioning;
using SensorPipeline.CosmosEmulator.Partitioning;

namespace SensorPipeline.CosmosEmulator.Documents;

/// <summary>The container's physical partition key ranges: <see cref="RequestedRanges"/> for a hash-version-2
/// partition key (what the SDKs create by default), one range otherwise. Each partition key belongs to the range of its
/// effective partition key, computed once per key.</summary>
internal sealed partial class ContainerState
{
    private readonly ConcurrentDictionary<string, int> _rangeOfKey = new(StringComparer.Ordinal);
    private PartitionKeyRanges? _ranges;
    private bool _hashVersion2;

    /// <summary>The ranges the emulator is configured to serve (<c>Cosmos:PartitionKeyRanges</c>).</summary>
    public int RequestedRanges { get; init; } = 1;

    public PartitionKeyRanges Ranges => _ranges ??= _hashVersion2 && RequestedRanges > 1 ? new PartitionKeyRanges(RequestedRanges) : PartitionKeyRanges.Single;

    /// <summary>The range holding a canonical partition key.</summary>
    public int RangeOfKey(string partitionKey) =>
        Ranges.Count == 1 ? 0 : _rangeOfKey.GetOrAdd(partitionKey, static (key, ranges) => ranges.RangeOf(EffectivePartitionKey.Of(key)), Ranges);

    /// <summary>Whether the partition <paramref name="key"/> is in a query's scope, as <see cref="Snapshot(string?, int?, long)"/>
    /// draws it: the partition key it names, else the range it is addressed to (any, with one range), else every partition.</summary>
    private bool InScope(string key, string? partitionKey, int? range) => partitionKey is not null
        ? string.Equals(key, partitionKey, StringComparison.Ordinal)
        : range is null || Ranges.Count == 1 || RangeOfKey(key) == range;

    /// <summary>The live documents of one partition key, or of one range, or all (both null), copied as references
    /// under the lock so a query runs without holding it.</summary>
    public List<StoredDocument> Snapshot(string? partitionKey, int? range, long now)
    {
        if (partitionKey is not null || range is null || Ranges.Count == 1)
        {
            return Snapshot(partitionKey, now);
        }

        lock (Gate)
        {
            var result = new List<StoredDocument>(DocumentCount / Ranges.Count + 16);
            foreach (var (key, partition) in _partitions)
            {
                if (RangeOfKey(key) == range)
                {
                    AddLive(partition, result, now);
                }
            }

            return result;
        }
    }

    private void ReadPartitioning(JsonElement partitionKey) =>
        _hashVersion2 = partitionKey.TryGetProperty("version", out var version) && version.ValueKind == JsonValueKind.Number && version.GetInt32() == 2
            && (!partitionKey.TryGetProperty("kind", out var kind) || kind.GetString() == "Hash");
}
