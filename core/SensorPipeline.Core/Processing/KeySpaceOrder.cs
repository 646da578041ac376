using System.Buffers;
using System.Text;
using SensorPipeline.Core.Partitioning;

namespace SensorPipeline.Core.Processing;

/// <summary>
/// The order in which a batch's documents are handed to a bulk writer: live before archive, then by the effective
/// partition key of their device (<see cref="EffectivePartitionKey"/>), equal keys in batch order. Cosmos DB's physical
/// partition key ranges are contiguous intervals of that key space, so in this order every range's writes of a
/// container come one after another, whatever the ranges' bounds are. Handed over in one pass, they reach the SDK's
/// per-range bulk batch together instead of spread over the whole phase, where its 100 ms dispatch timer cuts them
/// into several requests (docs/benchmarks.md, "Routing by the key space").
/// </summary>
public static class KeySpaceOrder
{
    private const int StackLimit = 256;

    /// <summary>The indices of <paramref name="documents"/> in key-space order.</summary>
    public static int[] Of(IReadOnlyList<PendingDocument> documents)
    {
        ArgumentNullException.ThrowIfNull(documents);
        var keys = new Key[documents.Count];
        for (var i = 0; i < keys.Length; i++)
        {
            var document = documents[i];
            keys[i] = new Key(document.Target, Epk(document.DeviceId), i);
        }

        Array.Sort(keys);
        var order = new int[keys.Length];
        for (var i = 0; i < keys.Length; i++)
        {
            order[i] = keys[i].Index;
        }

        return order;
    }

    private static UInt128 Epk(string deviceId)
    {
        var length = Encoding.UTF8.GetMaxByteCount(deviceId.Length);
        byte[]? rented = null;
        var utf8 = length <= StackLimit ? stackalloc byte[StackLimit] : (rented = ArrayPool<byte>.Shared.Rent(length));
        var epk = EffectivePartitionKey.OfString(utf8[..Encoding.UTF8.GetBytes(deviceId, utf8)]);
        if (rented is not null)
        {
            ArrayPool<byte>.Shared.Return(rented);
        }

        return epk;
    }

    /// <summary>Sorts by container, then key, then place in the batch (which makes the unstable sort stable).</summary>
    private readonly record struct Key(DocumentTarget Target, UInt128 Epk, int Index) : IComparable<Key>
    {
        public int CompareTo(Key other)
        {
            var byTarget = Target.CompareTo(other.Target);
            if (byTarget != 0)
            {
                return byTarget;
            }

            var byKey = Epk.CompareTo(other.Epk);
            return byKey != 0 ? byKey : Index.CompareTo(other.Index);
        }
    }
}
