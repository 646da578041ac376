using SensorPipeline.CosmosEmulator.Partitioning;

namespace SensorPipeline.CosmosEmulator.Tests;

/// <summary>The emulator's cut of the key space against the .NET SDK's own (the expected bounds were printed by
/// Microsoft.Azure.Cosmos 3.64.0's <c>GetNEqualRangeEffectivePartitionKeys("", "FF", …, n)</c>); the hash itself is
/// tested in the core's <c>EffectivePartitionKeyTests</c>.</summary>
[Trait("Category", "Fast")]
public class PartitionKeyRangeBoundsTests
{
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
}
