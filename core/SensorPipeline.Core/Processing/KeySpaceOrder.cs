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
    /// <summary>The indices of <paramref name="documents"/> in key-space order.</summary>
    public static int[] Of(IReadOnlyList<PendingDocument> documents)
    {
        ArgumentNullException.ThrowIfNull(documents);
        var keys = new Key[documents.Count];
        for (var i = 0; i < keys.Length; i++)
        {
            var document = documents[i];
            keys[i] = new Key(document.Target, EffectivePartitionKey.OfString(document.DeviceId), i);
        }

        Array.Sort(keys);
        var order = new int[keys.Length];
        for (var i = 0; i < keys.Length; i++)
        {
            order[i] = keys[i].Index;
        }

        return order;
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
