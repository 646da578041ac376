using SensorPipeline.Core.Partitioning;

namespace SensorPipeline.Core.Splitting;

/// <summary>
/// Which of a hub's partitions a device's readings go to: the same one on every splitter instance and after every
/// restart, so one processor partition — and so one processor instance — sees all of a device's readings and can
/// coalesce its state. Partition p of P owns the p-th of P equal slices of Cosmos DB's effective partition key space,
/// and a device goes to the slice holding its id's EPK (<see cref="EffectivePartitionKey"/>: the hash the Cosmos DB SDKs
/// route <c>/deviceId</c> by, stable across processes, platforms and versions). Cosmos DB's physical ranges are
/// contiguous intervals of that space, so one processor partition's writes fall into about N / P of a container's N
/// ranges instead of all of them: an instance owning k partitions writes to k / P of the ranges, and the SDK's bulk
/// mode, which sends one request per range, packs up to P / k times more writes into each request. The price: when a
/// hub grows from P to M partitions, most devices move (not only (M − P) / M as with a consistent hash), each
/// restarting its state coalescing on its new partition (docs/envelopes-and-routing.md).
/// </summary>
public static class DevicePartitioner
{
    /// <summary>The partition index, from 0 to <paramref name="partitionCount"/> − 1, of the device <paramref name="deviceIdUtf8"/>:
    /// ⌊EPK(device id) × partitionCount / 2^126⌋.</summary>
    public static int PartitionOf(ReadOnlySpan<byte> deviceIdUtf8, int partitionCount)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(partitionCount, 1);
        return partitionCount == 1 ? 0 : EffectivePartitionKey.SliceOf(EffectivePartitionKey.OfString(deviceIdUtf8), partitionCount);
    }
}
