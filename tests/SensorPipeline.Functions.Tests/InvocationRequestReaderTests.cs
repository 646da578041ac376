using System.Text;
using SensorPipeline.Functions.Invocation;

namespace SensorPipeline.Functions.Tests;

/// <summary>The request parser on the exact host shapes, in memory (a pure unit).</summary>
[Trait("Category", "Fast")]
public sealed class InvocationRequestReaderTests
{
    private static readonly DateTimeOffset Enqueued = new(2026, 11, 21, 22, 0, 0, 123, TimeSpan.Zero);

    [Fact]
    public void Parse_HostShape_DecodesBodiesAndPositionsWithUtcTimes()
    {
        var body = HostRequest.Build("Splitter", "ingestion", "splitter", "7",
            [new HubEvent([1, 2, 3], 41, Enqueued), new HubEvent([], 42, Enqueued.AddSeconds(1)), new HubEvent([0xFF, 0xFE], 43, Enqueued.AddSeconds(2))],
            retryCount: 3);

        using var request = InvocationRequestReader.Parse(body, "events");

        Assert.Equal("7", request.PartitionId);
        Assert.Equal(3, request.RetryCount);
        Assert.Equal([[1, 2, 3], [], [0xFF, 0xFE]], request.Events.Select(e => e.Body.ToArray()));
        Assert.Equal([41L, 42L, 43L], request.Events.Select(e => e.Position.SequenceNumber));
        Assert.All(request.Events, e => Assert.Equal("7", e.Position.PartitionId));
        // "2026-11-21T22:00:00.1230000" carries no offset: it is UTC, not local time.
        Assert.Equal(Enqueued.ToUnixTimeMilliseconds(), request.Events[0].Position.EnqueuedTimeUnixMs);
        Assert.Equal(Enqueued.AddSeconds(2).ToUnixTimeMilliseconds(), request.Events[2].Position.EnqueuedTimeUnixMs);
    }

    [Fact]
    public void Parse_ArraysInsteadOfStringsAndEscapedBase64_AreAccepted()
    {
        // "AQ\u002BA" is "AQ+A" with the '+' escaped, as a strict encoder would write it.
        var json = """
            {"Metadata":{"PartitionContext":"{\"PartitionId\":\"2\"}","SequenceNumberArray":[5,6],
             "EnqueuedTimeUtcArray":["2026-11-21T22:00:00Z","2026-11-21T23:00:00+01:00"]},
             "Data":{"events":["AQID","AQ\u002BA"]}}
            """;

        using var request = InvocationRequestReader.Parse(Encoding.UTF8.GetBytes(json), "events");

        Assert.Equal("2", request.PartitionId);
        Assert.Equal([[1, 2, 3], [1, 15, 128]], request.Events.Select(e => e.Body.ToArray()));
        Assert.Equal(request.Events[0].Position.EnqueuedTimeUnixMs, request.Events[1].Position.EnqueuedTimeUnixMs);
        Assert.Equal(0, request.RetryCount);
    }

    [Theory]
    [InlineData("""{"Data":{"other":"[]"},"Metadata":{}}""", "Data.events is missing")]
    [InlineData("""{"Data":{"events":"[\"AQID\"]"},"Metadata":{"SequenceNumberArray":"[1]","EnqueuedTimeUtcArray":"[\"2026-11-21T22:00:00\"]"}}""", "PartitionId")]
    [InlineData("""{"Data":{"events":"[\"AQID\",\"AQID\"]"},"Metadata":{"PartitionContext":{"PartitionId":"0"},"SequenceNumberArray":"[1]","EnqueuedTimeUtcArray":"[\"2026-11-21T22:00:00\"]"}}""", "more events than")]
    [InlineData("""{"Data":{"events":"[\"AQID\"]"},"Metadata":{"PartitionContext":{"PartitionId":"0"},"SequenceNumberArray":"[1,2]","EnqueuedTimeUtcArray":"[\"2026-11-21T22:00:00\"]"}}""", "has 1 events but")]
    [InlineData("""{"Data":{"events":"[\"not base64!\"]"},"Metadata":{"PartitionContext":{"PartitionId":"0"},"SequenceNumberArray":"[1]","EnqueuedTimeUtcArray":"[\"2026-11-21T22:00:00\"]"}}""", "not valid base64")]
    [InlineData("""{"Data":{"events":"[{\"a\":1}]"},"Metadata":{"PartitionContext":{"PartitionId":"0"},"SequenceNumberArray":"[1]","EnqueuedTimeUtcArray":"[\"2026-11-21T22:00:00\"]"}}""", "dataType")]
    [InlineData("""{"Data":{"events":"[\"AQID\"]"},"Metadata":{"PartitionContext":{"PartitionId":"0"},"SequenceNumberArray":"[1]","EnqueuedTimeUtcArray":"[\"yesterday\"]"}}""", "EnqueuedTimeUtcArray[0]")]
    [InlineData("""{"Data":{"events":"[\"AQID\"]""", "not well-formed JSON")]
    public void Parse_NotTheHostShape_ThrowsNamingTheField(string json, string expected)
    {
        var error = Assert.Throws<InvalidInvocationException>(() => InvocationRequestReader.Parse(Encoding.UTF8.GetBytes(json), "events"));

        Assert.Contains(expected, error.Message, StringComparison.Ordinal);
    }
}
