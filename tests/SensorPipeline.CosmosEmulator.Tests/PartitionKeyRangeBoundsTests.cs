using SensorPipeline.Core.Partitioning;
using SensorPipeline.Core.Splitting;
using SensorPipeline.CosmosEmulator.Partitioning;

namespace SensorPipeline.CosmosEmulator.Tests;

/// <summary>The emulator's cut of the key space against the .NET SDK's own (the expected bounds were printed by
/// Microsoft.Azure.Cosmos 3.64.0's <c>GetNEqualRangeEffectivePartitionKeys("", "FF", …, n)</c>), and the splitter's
/// device routing against it: a processor partition's devices fall into its own slice of the ranges.</summary>
[Trait("Category", "Fast")]
public class PartitionKeyRangeBoundsTests
{
    private static readonly string[] Devices = [.. Enumerable.Range(0, 5_000).Select(i => $"weather-{i:D5}")];

    [Theory]
    [InlineData(2, "1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF")]
    [InlineData(3, "15555555555555555555555555555555 2AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")]
    [InlineData(4, "0FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF 1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFE 2FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFD")]
    public void Ranges_Count_SplitTheKeySpaceAsTheSdkDoes(int count, string boundaries)
    {
        var ranges = new PartitionKeyRanges(count);
        Assert.Equal("", ranges.MinInclusive(0));
        Assert.Equal("FF", ranges.MaxExclusive(count - 1));
        Assert.Equal(boundaries.Split(' '), Enumerable.Range(1, count - 1).Select(ranges.MinInclusive));
        Assert.Equal(0, ranges.RangeOf(""));
        Assert.Equal(count - 1, ranges.RangeOf("3FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF"));
        Assert.Equal(1, ranges.RangeOf(boundaries.Split(' ')[0]));
    }

    [Theory]
    [InlineData(4)]
    [InlineData(32)]
    public void PartitionOf_AsManyRangesAsPartitions_IsTheDevicesRange(int partitions)
    {
        var ranges = new PartitionKeyRanges(partitions);
        Assert.All(Devices, d => Assert.Equal(ranges.RangeOf(EffectivePartitionKey.Of($"[\"{d}\"]")), DevicePartitioner.PartitionOf(Encoding.UTF8.GetBytes(d), partitions)));
    }

    [Theory]
    [InlineData(4, 827)]
    [InlineData(32, 827)]
    [InlineData(32, 480)]
    public void PartitionOf_ManyRanges_KeepsEachPartitionsDevicesInItsShareOfTheRanges(int partitions, int rangeCount)
    {
        // The lever behind the routing: a processor partition's writes touch about N / P of a container's N ranges
        // (its own slice, plus at most the range straddling each of its two edges), so bulk packs P times more per request.
        var ranges = new PartitionKeyRanges(rangeCount);
        var touched = Devices.GroupBy(d => DevicePartitioner.PartitionOf(Encoding.UTF8.GetBytes(d), partitions))
            .Select(g => g.Select(d => ranges.RangeOf(EffectivePartitionKey.Of($"[\"{d}\"]"))).ToHashSet())
            .ToList();
        Assert.Equal(partitions, touched.Count);
        Assert.All(touched, set => Assert.InRange(set.Max() - set.Min() + 1, 1, (rangeCount / partitions) + 2));
        Assert.InRange(touched.Sum(s => s.Count), 1, rangeCount + partitions - 1);
    }
}
