using SensorPipeline.CosmosEmulator.Partitioning;

namespace SensorPipeline.CosmosEmulator.Tests;

/// <summary>The emulator's hash of partition keys against the .NET SDK's own: the expected values were printed by
/// Microsoft.Azure.Cosmos 3.64.0 (its <c>PartitionKeyInternal.GetEffectivePartitionKeyString</c> for a Hash version 2
/// key on one path, and <c>GetNEqualRangeEffectivePartitionKeys("", "FF", …, n)</c> for the even splits).</summary>
[Trait("Category", "Fast")]
public class EffectivePartitionKeyTests
{
    [Theory]
    [InlineData("[\"dev-weather-0001\"]", "39EBF3D5D039F47BA483F6D296EEBCCE")]
    [InlineData("[\"dev-1\"]", "0B288AE571CB6351DA68075FFB79736E")]
    [InlineData("[\"\"]", "32E9366E637A71B4E710384B2F4970A0")]
    [InlineData("[\"a\"]", "3A5381E1114EB8D3FCC90795045B49B7")]
    [InlineData("[\"ümlaut-é\"]", "3E0C78670D38DAEF40A0EB247315C899")]
    [InlineData("[5]", "19C08621B135968252FB34B4CF66F811")]
    [InlineData("[-1.5]", "151793206780805FF6E1DCAE6C787B6A")]
    [InlineData("[0]", "155B95BEDAC4B1E9EC1CDC9BB0DDDE58")]
    [InlineData("[true]", "0E711127C5B5A8E4726AC6DD306A3E59")]
    [InlineData("[false]", "2FE1BE91E90A3439635E0E9E37361EF2")]
    [InlineData("[null]", "378867E4430E67857ACE5C908374FE16")]
    [InlineData("[{}]", "11622DAA78F835834610ABE56EFF5CB5")]
    public void Of_AKey_IsTheSdksEffectivePartitionKey(string key, string expected) =>
        Assert.Equal(expected, EffectivePartitionKey.Of(key));

    [Fact]
    public void Of_ALongString_HashesEveryByte() =>
        Assert.Equal("0CAB7AEEEBDAB636883E36C4B75B837D", EffectivePartitionKey.Of($"[\"{new string('x', 300)}\"]"));

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
