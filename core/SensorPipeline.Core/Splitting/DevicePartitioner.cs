namespace SensorPipeline.Core.Splitting;

/// <summary>
/// Which of a hub's partitions a device's readings go to: the same one on every splitter instance and after every
/// restart, so one processor partition — and so one processor instance — sees all of a device's readings and can
/// coalesce its state. A stable hash of the device id's UTF-8 bytes (64-bit FNV-1a; <c>string.GetHashCode</c> is
/// randomized per process, so it cannot be used), mapped onto the partitions by jump consistent hashing (Lamping and
/// Veach, "A Fast, Minimal Memory, Consistent Hash Algorithm", https://arxiv.org/abs/1406.2294): when a hub grows from
/// N to M partitions only (M − N) / M of the devices move, each to one of the new partitions, instead of nearly all of
/// them as with a modulo.
/// </summary>
public static class DevicePartitioner
{
    private const ulong FnvOffsetBasis = 14695981039346656037UL;
    private const ulong FnvPrime = 1099511628211UL;

    /// <summary>The partition index, from 0 to <paramref name="partitionCount"/> − 1, of the device <paramref name="deviceIdUtf8"/>.</summary>
    public static int PartitionOf(ReadOnlySpan<byte> deviceIdUtf8, int partitionCount)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(partitionCount, 1);
        return partitionCount == 1 ? 0 : JumpHash(Fnv1a(deviceIdUtf8), partitionCount);
    }

    /// <summary>64-bit FNV-1a: stable across processes, platforms and .NET versions.</summary>
    public static ulong Fnv1a(ReadOnlySpan<byte> bytes)
    {
        var hash = FnvOffsetBasis;
        foreach (var b in bytes)
        {
            hash = (hash ^ b) * FnvPrime;
        }

        return hash;
    }

    /// <summary>Jump consistent hash: the bucket of <paramref name="key"/> among <paramref name="buckets"/>.</summary>
    internal static int JumpHash(ulong key, int buckets)
    {
        long b = -1;
        long j = 0;
        while (j < buckets)
        {
            b = j;
            key = unchecked((key * 2862933555777941757UL) + 1);
            j = (long)((b + 1) * ((double)(1L << 31) / ((key >> 33) + 1)));
        }

        return (int)b;
    }
}
