using System.Text;
using SensorPipeline.Core.Partitioning;

namespace SensorPipeline.Core.Tests;

/// <summary>The hash of partition keys against the .NET SDK's own: the expected values were printed by
/// Microsoft.Azure.Cosmos 3.64.0 (its <c>PartitionKeyInternal.GetEffectivePartitionKeyString</c> for a Hash version 2
/// key on one path).</summary>
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
    [InlineData("dev-weather-0001", "39EBF3D5D039F47BA483F6D296EEBCCE")]
    [InlineData("dev-1", "0B288AE571CB6351DA68075FFB79736E")]
    [InlineData("", "32E9366E637A71B4E710384B2F4970A0")]
    [InlineData("ümlaut-é", "3E0C78670D38DAEF40A0EB247315C899")]
    public void OfString_Utf8DeviceId_IsTheSdksEffectivePartitionKey(string id, string expected) =>
        Assert.Equal(expected, EffectivePartitionKey.ToHex(EffectivePartitionKey.OfString(Encoding.UTF8.GetBytes(id))));

    [Fact]
    public void OfString_IdLongerThanTheStackBuffer_IsTheSdksEffectivePartitionKey() =>
        Assert.Equal("0CAB7AEEEBDAB636883E36C4B75B837D", EffectivePartitionKey.ToHex(EffectivePartitionKey.OfString(Encoding.UTF8.GetBytes(new string('x', 300)))));

    [Theory]
    [InlineData("dev-weather-0001", "39EBF3D5D039F47BA483F6D296EEBCCE")]
    [InlineData("dev-1", "0B288AE571CB6351DA68075FFB79736E")]
    [InlineData("", "32E9366E637A71B4E710384B2F4970A0")]
    [InlineData("ümlaut-é", "3E0C78670D38DAEF40A0EB247315C899")]
    public void OfString_DotNetString_IsTheSdksEffectivePartitionKey(string id, string expected) =>
        Assert.Equal(expected, EffectivePartitionKey.ToHex(EffectivePartitionKey.OfString(id)));

    [Fact]
    public void OfString_DotNetStringLongerThanTheStackBuffer_IsTheSdksEffectivePartitionKey() =>
        Assert.Equal("0CAB7AEEEBDAB636883E36C4B75B837D", EffectivePartitionKey.ToHex(EffectivePartitionKey.OfString(new string('x', 300))));

    [Theory]
    [InlineData("00000000000000000000000000000000", 4, 0)]
    [InlineData("0FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", 4, 0)]
    [InlineData("10000000000000000000000000000000", 4, 1)]
    [InlineData("3FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", 4, 3)]
    [InlineData("3FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", 1_000_003, 1_000_002)]
    [InlineData("39EBF3D5D039F47BA483F6D296EEBCCE", 32, 28)]
    [InlineData("0B288AE571CB6351DA68075FFB79736E", 32, 5)]
    public void SliceOf_AnEffectivePartitionKey_IsItsShareOfTheKeySpaceRoundedDown(string epk, int count, int expected) =>
        Assert.Equal(expected, EffectivePartitionKey.SliceOf(UInt128.Parse(epk, System.Globalization.NumberStyles.HexNumber, null), count));

    [Fact]
    public void SliceOf_AValueOutsideTheKeySpace_Throws() =>
        Assert.Throws<ArgumentOutOfRangeException>(() => EffectivePartitionKey.SliceOf(UInt128.One << 126, 4));
}
