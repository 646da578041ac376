using SensorPipeline.EventHubs.Http;

namespace SensorPipeline.EventHubs.Tests;

/// <summary>The batch parser alone: what a client can get wrong is a <see cref="BatchFormatException"/>, whatever the cause.</summary>
[Trait("Category", "Fast")]
public sealed class BatchParserTests
{
    public static TheoryData<string, byte[]> Malformed => new()
    {
        { "number out of range", "[{\"Body\":\"a\",\"UserProperties\":{\"n\":1e400}}]"u8.ToArray() },
        { "negative number out of range", "[{\"Body\":\"a\",\"UserProperties\":{\"n\":-1e400}}]"u8.ToArray() },
        { "invalid UTF-8 in a body", [.. "[{\"Body\":\"a"u8, 0x80, .. "\"}]"u8] },
        { "invalid UTF-8 in an escaped body", [.. "[{\"Body\":\"\\n"u8, 0xE2, 0x82, .. "\"}]"u8] },
        { "lone surrogate escape in a body", "[{\"Body\":\"\\uD800\"}]"u8.ToArray() },
        { "invalid UTF-8 in a property name", [.. "[{\"Body\":\"a\",\"UserProperties\":{\""u8, 0xFF, .. "\":1}}]"u8] },
        { "lone surrogate escape in a property value", "[{\"Body\":\"a\",\"UserProperties\":{\"s\":\"\\uDC00\"}}]"u8.ToArray() },
        { "invalid UTF-8 in a partition key", [.. "[{\"Body\":\"a\",\"BrokerProperties\":{\"PartitionKey\":\""u8, 0xF0, 0x28, .. "\"}}]"u8] },
    };

    [Theory]
    [MemberData(nameof(Malformed))]
    public void Parse_Malformed_BatchFormatException(string scenario, byte[] json)
    {
        var error = Record.Exception(() => BatchParser.Parse(json, new byte[json.Length]));
        Assert.True(error is BatchFormatException, $"{scenario}: {error?.GetType().Name ?? "no error"}: {error?.Message}");
        Assert.False(string.IsNullOrWhiteSpace(error!.Message));
    }

    [Fact]
    public void Parse_LargeButFiniteNumber_Kept()
    {
        var events = BatchParser.Parse("[{\"Body\":\"a\",\"UserProperties\":{\"n\":1e300}}]"u8.ToArray(), new byte[64]);
        Assert.Equal(1e300, Assert.IsType<double>(events[0].Properties!["n"]));
    }
}
