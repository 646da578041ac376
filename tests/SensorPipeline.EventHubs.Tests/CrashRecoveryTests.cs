using System.Globalization;
using System.Net;
using System.Text;

namespace SensorPipeline.EventHubs.Tests;

/// <summary>kill -9 of a running devhost and torn segment tails, then a restart on the same data directory.</summary>
public sealed class CrashRecoveryTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    private string AppRoot => Directory.CreateDirectory(Path.Combine(_dir.Path, "app")).FullName;

    private string Data => Path.Combine(_dir.Path, "data");

    private static string Hubs => RepoLayout.Current.EventHubsConfig;

    private sealed record Ack(string Partition, long Sequence, string Body);

    [Theory]
    [InlineData("Always")]
    [InlineData("Interval")]
    [InlineData("None")]
    public async Task KillDashNine_MidStream_EveryAcknowledgedEventSurvivesWithItsSequenceNumber(string durability)
    {
        var acks = new List<Ack>();
        var devHost = await RunningDevHost.StartAsync(AppRoot, Data, Hubs, $"EventHubs:Durability={durability}");
        await using (devHost)
        {
            var enough = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            using var stop = new CancellationTokenSource(TimeSpan.FromSeconds(20));
            var senders = Enumerable.Range(0, 4).Select(sender => SendUntilKilledAsync(devHost.Client, sender, acks, enough, stop.Token)).ToList();

            // Kill while all senders are mid-stream (some requests are in flight and never acknowledged): once 400 are
            // acknowledged, or after 15 s on a slow machine, which the count asserted below then judges.
            try
            {
                await enough.Task.WaitAsync(TimeSpan.FromSeconds(15));
            }
            catch (TimeoutException)
            {
                // Kill anyway.
            }

            await devHost.KillHardAsync();
            await Task.WhenAll(senders);
        }

        Assert.True(acks.Count >= 100, $"only {acks.Count} acknowledgements before the kill");
        await using var restarted = await RunningDevHost.StartAsync(AppRoot, Data, Hubs, $"EventHubs:Durability={durability}");
        foreach (var partition in acks.GroupBy(a => a.Partition))
        {
            var stored = await Http.AllEventsAsync(restarted.Client, "ingestion", partition.Key);
            Assert.Equal(Enumerable.Range(0, stored.Count).Select(i => (long)i), stored.Select(e => e.GetProperty("sequenceNumber").GetInt64()));
            foreach (var ack in partition)
            {
                Assert.True(ack.Sequence < stored.Count, $"acknowledged {ack.Body} at {ack.Partition}/{ack.Sequence} is gone");
                Assert.Equal(ack.Body, stored[(int)ack.Sequence].GetProperty("body").GetString());
            }
        }
    }

    private static async Task SendUntilKilledAsync(HttpClient client, int sender, List<Ack> acks, TaskCompletionSource enough, CancellationToken cancellationToken)
    {
        for (var i = 0; i < 100_000 && !cancellationToken.IsCancellationRequested; i++)
        {
            var batch = i % 5 == 4;
            var body = $"s{sender}-{i}";
            using var request = batch
                ? Http.Post("/ingestion/messages", Http.Batch($"[{{\"Body\":\"{body}-a\",\"BrokerProperties\":{{\"PartitionKey\":\"s{sender}\"}}}},{{\"Body\":\"{body}-b\",\"BrokerProperties\":{{\"PartitionKey\":\"s{sender}\"}}}}]"))
                : Http.Post("/ingestion/messages", Http.Raw(Encoding.UTF8.GetBytes(body)));
            if (!batch)
            {
                request.Headers.Add("BrokerProperties", $"{{\"PartitionKey\":\"s{sender}\"}}");
            }

            HttpResponseMessage response;
            try
            {
                response = await client.SendAsync(request, cancellationToken);
            }
            catch (HttpRequestException)
            {
                return; // the devhost was killed: this request was never acknowledged
            }

            using (response)
            {
                Assert.Equal(HttpStatusCode.Created, response.StatusCode);
                var partition = Http.Header(response, "X-Partition-Id");
                var first = long.Parse(Http.Header(response, "X-First-Sequence-Number"), CultureInfo.InvariantCulture);
                lock (acks)
                {
                    if (batch)
                    {
                        acks.Add(new Ack(partition, first, body + "-a"));
                        acks.Add(new Ack(partition, first + 1, body + "-b"));
                    }
                    else
                    {
                        acks.Add(new Ack(partition, first, body));
                    }

                    if (acks.Count >= 400)
                    {
                        enough.TrySetResult();
                    }
                }
            }
        }
    }

    [Theory]
    [InlineData("garbage", 4)]
    [InlineData("cut", 3)]
    public async Task Restart_TornSegmentTail_Recovered(string damage, long expectedLast)
    {
        await using (var devHost = await RunningDevHost.StartAsync(AppRoot, Data, Hubs))
        {
            for (var i = 0; i < 5; i++)
            {
                using var response = await devHost.Client.SendAsync(Http.Post("/ingestion/partitions/2/messages", Http.Raw(Encoding.UTF8.GetBytes("event-" + i))));
                Assert.Equal(HttpStatusCode.Created, response.StatusCode);
            }

            await devHost.KillHardAsync();
        }

        var segment = Directory.GetFiles(Path.Combine(Data, "eventhubs", "ingestion", "2"), "*.log").Order(StringComparer.Ordinal).Last();

        // A power cut tears only what was never acknowledged: here the last event, as if its fsync never returned.
        TestData.SetDurableMark(segment, damage == "garbage" ? new FileInfo(segment).Length : TestData.RecordStarts(segment)[^1]);
        if (damage == "garbage")
        {
            await File.AppendAllTextAsync(segment, "\u0001\u0002half a record from a write the power cut short");
        }
        else
        {
            await using var stream = new FileStream(segment, FileMode.Open);
            stream.SetLength(stream.Length - 5);
        }

        await using var restarted = await RunningDevHost.StartAsync(AppRoot, Data, Hubs);
        var status = await Http.GetJsonAsync(restarted.Client, "/status");
        Assert.Equal(expectedLast, status.GetProperty("hubs")[0].GetProperty("partitions")[2].GetProperty("lastSequenceNumber").GetInt64());
        using var next = await restarted.Client.SendAsync(Http.Post("/ingestion/partitions/2/messages", Http.Raw("after"u8.ToArray())));
        Assert.Equal((expectedLast + 1).ToString(CultureInfo.InvariantCulture), Http.Header(next, "X-First-Sequence-Number"));
        var stored = await Http.AllEventsAsync(restarted.Client, "ingestion", "2");
        Assert.Equal(Enumerable.Range(0, (int)expectedLast + 1).Select(i => "event-" + i).Append("after"), stored.Select(e => e.GetProperty("body").GetString()));
    }
}
