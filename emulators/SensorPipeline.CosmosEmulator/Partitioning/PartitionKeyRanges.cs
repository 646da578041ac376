using System.Globalization;
using System.Numerics;

namespace SensorPipeline.CosmosEmulator.Partitioning;

/// <summary>
/// A container's physical partition key ranges: the EPK space ("" to "FF") cut into <see cref="Count"/> ranges of equal
/// width, range i from i × ⌊(2^126 − 1) / N⌋ — the cut the .NET SDK's own even split of a range produces
/// (0FFF…F, 1FFF…FE, 2FFF…FD for four). Range ids are "0" to "N−1".
/// </summary>
internal sealed class PartitionKeyRanges
{
    /// <summary>One range over the whole key space.</summary>
    public static readonly PartitionKeyRanges Single = new(1);

    private static readonly BigInteger MaxHash = (BigInteger.One << 126) - 1;
    private readonly string[] _bounds;

    public PartitionKeyRanges(int count)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(count, 1);
        Count = count;
        var step = MaxHash / count;
        _bounds = new string[count + 1];
        _bounds[0] = "";
        _bounds[count] = "FF";
        for (var i = 1; i < count; i++)
        {
            _bounds[i] = (step * i).ToString("X32", CultureInfo.InvariantCulture)[^32..];
        }
    }

    public int Count { get; }

    public string MinInclusive(int range) => _bounds[range];

    public string MaxExclusive(int range) => _bounds[range + 1];

    /// <summary>The range holding an effective partition key.</summary>
    public int RangeOf(string effectivePartitionKey)
    {
        var (low, high) = (0, Count - 1);
        while (low < high)
        {
            var middle = (low + high + 1) / 2;
            if (string.CompareOrdinal(effectivePartitionKey, _bounds[middle]) >= 0)
            {
                low = middle;
            }
            else
            {
                high = middle - 1;
            }
        }

        return low;
    }

    /// <summary>Parses a range id from <c>x-ms-documentdb-partitionkeyrangeid</c> (<c>1</c>, or <c>collectionRid,1</c>).</summary>
    public bool TryParse(string header, out int range)
    {
        var id = header.AsSpan(header.LastIndexOf(',') + 1).Trim();
        return int.TryParse(id, NumberStyles.None, CultureInfo.InvariantCulture, out range) && range < Count;
    }
}
