using System.Net;
using System.Text;

namespace SensorPipeline.EventHubs.Tests;

/// <summary>Random and mutated bodies to the batch route: every answer is a 4xx with a reason, never a 500, and the
/// devhost keeps accepting valid sends afterwards.</summary>
public sealed class BatchFuzzTests(DevHostFixture fixture) : IClassFixture<DevHostFixture>
{
    private const string Valid = """
        [{"Body":"caf\u00e9 \"x\"","UserProperties":{"i":1,"l":5000000000,"d":0.5,"b":true,"s":"t","n":null},"BrokerProperties":{"PartitionKey":"k"}},
         {"Body":"two","BrokerProperties":{"PartitionKey":"k"}}]
        """;

    [Fact]
    public async Task RandomAndMutatedBatches_AlwaysAnswer4xx_Never500()
    {
        // A fixed seed, so a failure reproduces; printed in the assertion message.
        const int Seed = 20261123;
        var random = new Random(Seed);
        var valid = Encoding.UTF8.GetBytes(Valid);
        var client = fixture.DevHost.Client;
        for (var i = 0; i < 400; i++)
        {
            var body = (i % 4) switch
            {
                0 => RandomBytes(random),
                1 => Mutate(valid, random, flips: 1),
                2 => Mutate(valid, random, flips: 4),
                _ => Splice(valid, random),
            };
            var content = new ByteArrayContent(body);
            content.Headers.ContentType = new System.Net.Http.Headers.MediaTypeHeaderValue(Http.BatchType);
            using var response = await client.SendAsync(Http.Post("/ingestion/messages", content));

            // A mutation can leave the batch valid (201); what must never happen is a server error.
            Assert.True(
                response.StatusCode == HttpStatusCode.Created || (int)response.StatusCode is >= 400 and < 500,
                $"seed {Seed}, case {i}: {(int)response.StatusCode} for body {Convert.ToBase64String(body)}");
        }

        using var after = await client.SendAsync(Http.Post("/ingestion/messages", Http.Batch(Valid)));
        Assert.Equal(HttpStatusCode.Created, after.StatusCode);
    }

    private static byte[] RandomBytes(Random random)
    {
        var bytes = new byte[random.Next(1, 300)];
        random.NextBytes(bytes);
        return bytes;
    }

    /// <summary>The valid batch with a few bytes replaced: reaches deep into the parser before something breaks.</summary>
    private static byte[] Mutate(byte[] valid, Random random, int flips)
    {
        var bytes = (byte[])valid.Clone();
        for (var f = 0; f < flips; f++)
        {
            bytes[random.Next(bytes.Length)] = random.Next(3) switch
            {
                0 => (byte)random.Next(256),
                1 => (byte)"\"\\{}[]:,0e-"[random.Next(11)],
                _ => (byte)random.Next(0x80, 0x100), // stray UTF-8 lead or continuation bytes
            };
        }

        return bytes;
    }

    /// <summary>A prefix of the valid batch, some random bytes, and a suffix: truncations and garbage in the middle.</summary>
    private static byte[] Splice(byte[] valid, Random random)
    {
        var cut = random.Next(valid.Length);
        var resume = random.Next(cut, valid.Length);
        var middle = new byte[random.Next(0, 8)];
        random.NextBytes(middle);
        return [.. valid.AsSpan(0, cut), .. middle, .. valid.AsSpan(resume)];
    }
}
