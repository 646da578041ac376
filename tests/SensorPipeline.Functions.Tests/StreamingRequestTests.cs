using System.Text;
using System.Text.Json;
using SensorPipeline.Functions.Invocation;

namespace SensorPipeline.Functions.Tests;

/// <summary>
/// The request parser reading the body as it streams in (a pure unit): whatever the chunking, it gives what a
/// whole-document parse of the same body gives, and a cut or malformed body is an <see cref="InvalidInvocationException"/>.
/// </summary>
[Trait("Category", "Fast")]
public sealed class StreamingRequestTests
{
    private static readonly DateTimeOffset Enqueued = new(2026, 11, 21, 22, 0, 0, 123, TimeSpan.Zero);

    [Theory]
    [InlineData(4096)]
    [InlineData(65_536 + 13)]
    [InlineData(1_000_003)]
    public async Task ReadAsync_TwoEventsOfAboutOneMegabyte_GiveWhatAWholeDocumentParseGives(int chunk)
    {
        var random = new Random(chunk);
        var events = new[] { Event(random, 1_000_000, 41), Event(random, 983_040, 42) };
        var body = HostRequest.Build("WeatherProcessor", "weather", "weather-processor", "5", events, retryCount: 2);

        using var streamed = await InvocationRequestReader.ReadAsync(new ChunkedStream(body, chunk), "events", CancellationToken.None);

        AssertSame(Reference(body), streamed);
        Assert.Equal(events.Select(e => e.Body), streamed.Events.Select(e => e.Body.ToArray()));
    }

    [Fact]
    public async Task ReadAsync_EveryChunkSizeCuttingEscapesAndTokens_SameResult()
    {
        // Escapes in the trigger text ("\u002B" for '+', "\/"), a surrogate pair and quotes in skipped strings, metadata
        // after the data, unknown properties of every kind: every chunk size from 1 byte cuts each of them somewhere.
        var json = """
            {"sys":{"MethodName":"x","n":[1,2,{"a":null}]},"Data":{"other":"[\"AQID\"]","events":"[\"AQ\\u002BA\",\"AQID\" , \"\\/w==\",\"\"]"},
             "Metadata":{"PropertiesArray":"[{\"emoji\":\"\\ud83d\\ude00 \\\" q\"}]","PartitionContext":{"ConsumerGroup":"c","PartitionId":"11"},
             "SequenceNumberArray":"[7,8,9,10]","EnqueuedTimeUtcArray":"[\"2026-11-21T22:00:00\",\"2026-11-21T22:00:01\",\"2026-11-21T22:00:02\",\"2026-11-21T22:00:03\"]",
             "RetryContext":{"RetryCount":4,"Exception":null},"Number":12.5e3,"Flag":true}}
            """;
        var body = Encoding.UTF8.GetBytes(json);
        var expected = Reference(body);
        Assert.Equal([[1, 15, 128], [1, 2, 3], [0xFF], []], expected.Bodies);

        for (var chunk = 1; chunk <= body.Length; chunk++)
        {
            using var streamed = await InvocationRequestReader.ReadAsync(new ChunkedStream(body, chunk), "events", CancellationToken.None);
            AssertSame(expected, streamed);
        }
    }

    [Fact]
    public async Task ReadAsync_RealArraysInsteadOfStringsChunkedAnywhere_SameResult()
    {
        var json = """{"Data":{"events":["AQID","AQ\u002BA"]},"Metadata":{"PartitionContext":"{\"PartitionId\":\"2\"}","SequenceNumberArray":[5,6],"EnqueuedTimeUtcArray":["2026-11-21T22:00:00Z","2026-11-21T22:00:00Z"]}}""";
        var body = Encoding.UTF8.GetBytes(json);
        for (var chunk = 1; chunk <= body.Length; chunk++)
        {
            using var streamed = await InvocationRequestReader.ReadAsync(new ChunkedStream(body, chunk), "events", CancellationToken.None);
            Assert.Equal("2", streamed.PartitionId);
            Assert.Equal([[1, 2, 3], [1, 15, 128]], streamed.Events.Select(e => e.Body.ToArray()));
        }
    }

    [Fact]
    public async Task ReadAsync_BodyCutAnywhere_NotWellFormedNeverAnotherError()
    {
        var body = HostRequest.Build("Splitter", "ingestion", "splitter", "0",
            [new HubEvent([1, 2, 3, 4, 5, 6, 7], 1, Enqueued), new HubEvent([9, 8], 2, Enqueued)], retryCount: 1);

        for (var length = 0; length < body.Length; length++)
        {
            var cut = body[..length];
            var error = await Assert.ThrowsAsync<InvalidInvocationException>(() =>
                InvocationRequestReader.ReadAsync(new ChunkedStream(cut, 7), "events", CancellationToken.None));
            Assert.Contains("not well-formed JSON", error.Message, StringComparison.Ordinal);
            Assert.Throws<InvalidInvocationException>(() => InvocationRequestReader.Parse(cut, "events"));
        }
    }

    [Theory]
    [InlineData("""{"Data":{"events":"[\"AQID\"]","events":"[]"},"Metadata":{}}""", "appears more than once")]
    [InlineData("""{"Data":{"events":"[\"AQ\x\"]"},"Metadata":{}}""", "invalid escape")]
    [InlineData("""{"Data":{"events":"[\"\ud83d\u0041\"]"},"Metadata":{}}""", "lone surrogate")]
    [InlineData("""{"Data":{"events":"[\"\ud83d\ude00\"]"},"Metadata":{"PartitionContext":{"PartitionId":"0"},"SequenceNumberArray":"[1]","EnqueuedTimeUtcArray":"[\"2026-11-21T22:00:00\"]"}}""", "Data.events[0] is not valid base64")]
    [InlineData("""{"Data":{"events":"{}"},"Metadata":{}}""", "Data.events is StartObject, expected StartArray")]
    [InlineData("""{"Data":{"events":12},"Metadata":{}}""", "expected a JSON string holding JSON text or an array")]
    [InlineData("""{"Data":{"events":"[\"AQID\""},"Metadata":{}}""", "not well-formed JSON")]
    [InlineData("""[1]""", "the request body is StartArray")]
    public async Task ReadAsync_Malformed_NamesWhat(string json, string expected)
    {
        var body = Encoding.UTF8.GetBytes(json);
        var error = await Assert.ThrowsAsync<InvalidInvocationException>(() =>
            InvocationRequestReader.ReadAsync(new ChunkedStream(body, 3), "events", CancellationToken.None));

        Assert.Contains(expected, error.Message, StringComparison.Ordinal);
    }

    private static HubEvent Event(Random random, int size, long sequence)
    {
        var body = new byte[size];
        random.NextBytes(body);
        return new HubEvent(body, sequence, Enqueued.AddSeconds(sequence));
    }

    private static void AssertSame(Parsed expected, InvocationRequest actual)
    {
        Assert.Equal(expected.PartitionId, actual.PartitionId);
        Assert.Equal(expected.RetryCount, actual.RetryCount);
        Assert.Equal(expected.Bodies.Count, actual.Events.Count);
        for (var i = 0; i < expected.Bodies.Count; i++)
        {
            Assert.True(expected.Bodies[i].AsSpan().SequenceEqual(actual.Events[i].Body.Span), $"event {i} differs");
            Assert.Equal(expected.Sequences[i], actual.Events[i].Position.SequenceNumber);
            Assert.Equal(expected.EnqueuedMs[i], actual.Events[i].Position.EnqueuedTimeUnixMs);
            Assert.Equal(expected.PartitionId, actual.Events[i].Position.PartitionId);
        }
    }

    private sealed record Parsed(string PartitionId, int RetryCount, List<byte[]> Bodies, List<long> Sequences, List<long> EnqueuedMs);

    /// <summary>An independent reading of the host shape: the whole body as a JSON DOM, the JSON-in-string values parsed again.</summary>
    private static Parsed Reference(byte[] body)
    {
        using var document = JsonDocument.Parse(body);
        var root = document.RootElement;
        var metadata = root.GetProperty("Metadata");
        var partition = metadata.GetProperty("PartitionContext").GetProperty("PartitionId").GetString()!;
        var retry = metadata.TryGetProperty("RetryContext", out var context) ? context.GetProperty("RetryCount").GetInt32() : 0;
        var bodies = Inner(root.GetProperty("Data").GetProperty("events")).Select(e => e.GetBytesFromBase64()).ToList();
        var sequences = Inner(metadata.GetProperty("SequenceNumberArray")).Select(e => e.GetInt64()).ToList();
        var enqueued = Inner(metadata.GetProperty("EnqueuedTimeUtcArray"))
            .Select(e => new DateTimeOffset(DateTime.SpecifyKind(e.GetDateTime(), DateTimeKind.Utc)).ToUnixTimeMilliseconds()).ToList();
        return new Parsed(partition, retry, bodies, sequences, enqueued);
    }

    private static List<JsonElement> Inner(JsonElement value)
    {
        using var inner = JsonDocument.Parse(value.GetString()!);
        return [.. inner.RootElement.EnumerateArray().Select(e => e.Clone())];
    }

    /// <summary>A body delivered at most <c>chunk</c> bytes per read, as a network would cut it.</summary>
    private sealed class ChunkedStream(byte[] data, int chunk) : MemoryStream(data, writable: false)
    {
        public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default) =>
            base.ReadAsync(buffer[..Math.Min(buffer.Length, chunk)], cancellationToken);
    }
}
