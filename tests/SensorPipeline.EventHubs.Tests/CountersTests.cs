using System.Diagnostics.Metrics;
using Azure.Messaging.EventHubs;
using Azure.Messaging.EventHubs.Consumer;
using Azure.Messaging.EventHubs.Producer;
using SensorPipeline.EventHubs.Tests.Amqp;

namespace SensorPipeline.EventHubs.Tests;

/// <summary>The namespace's counters in <c>GET /status</c> move as a known sequence of REST and AMQP sends must move
/// them. The class has its own devhost (Always durability, no functions), so nothing else sends while a test reads the
/// counters before and after.</summary>
public sealed class CountersTests(DevHostFixture fixture) : IClassFixture<DevHostFixture>
{
    private const int Sends = 12;

    [Fact]
    public async Task Counters_AmqpSendsOneByOne_CountEachTransferEventAndGroupCommit()
    {
        var before = await CountersAsync(fixture.DevHost.Client);
        await using (var producer = new EventHubProducerClient(AmqpPeer.ConnectionString(fixture.DevHost.BaseAddress), "ingestion"))
        {
            for (var i = 0; i < Sends; i++)
            {
                await producer.SendAsync([new EventData(new byte[100])]);
            }
        }

        var d = Delta(before, await CountersAsync(fixture.DevHost.Client));
        Assert.Equal(Sends, d["eventsAppendedAmqp"]);
        Assert.Equal(0, d["eventsAppendedRest"]);
        Assert.Equal(Sends, d["eventsCommitted"]);
        Assert.InRange(d["amqpTransfersReceived"], Sends, long.MaxValue);
        Assert.InRange(d["amqpDispositionsSent"], 1, long.MaxValue);
        Assert.InRange(d["amqpFramesReceived"], d["amqpTransfersReceived"] + d["amqpFlowsReceived"], long.MaxValue);
        Assert.InRange(d["amqpFramesSent"], d["amqpDispositionsSent"] + d["amqpFlowsSent"], long.MaxValue);

        // Each send waits for its acknowledgement, so each is its own group commit; under Always each group commit
        // fsyncs once (no segment filled up: sealing one would add two).
        Assert.Equal(Sends, d["groupCommits"]);
        Assert.Equal(d["groupCommits"], d["fsyncCalls"]);
        Assert.InRange(d["fsyncTicks"], 1, long.MaxValue);
    }

    [Fact]
    public async Task Counters_RestSendsAndABatch_CountRestEventsAndNoAmqpTransfer()
    {
        var before = await CountersAsync(fixture.DevHost.Client);
        for (var i = 0; i < Sends; i++)
        {
            using var response = await fixture.DevHost.Client.SendAsync(Http.Post("/ingestion/messages", Http.Raw([1, 2, 3])));
            response.EnsureSuccessStatusCode();
        }

        using (var batch = await fixture.DevHost.Client.SendAsync(Http.Post("/ingestion/messages", Http.Batch("""[{"Body":"a"},{"Body":"b"},{"Body":"c"}]"""))))
        {
            batch.EnsureSuccessStatusCode();
        }

        var d = Delta(before, await CountersAsync(fixture.DevHost.Client));
        Assert.Equal(Sends + 3, d["eventsAppendedRest"]);
        Assert.Equal(0, d["eventsAppendedAmqp"]);
        Assert.Equal(0, d["amqpTransfersReceived"]);
        Assert.Equal(Sends + 3, d["eventsCommitted"]);
        Assert.Equal(Sends + 1, d["groupCommits"]);
        Assert.Equal(d["groupCommits"], d["fsyncCalls"]);
    }

    [Fact]
    public async Task Counters_ReceiverReadsEvents_CountsTransfersSent()
    {
        var partition = await CountersPartitionAsync();
        var before = await CountersAsync(fixture.DevHost.Client);
        await using var consumer = new EventHubConsumerClient("$Default", AmqpPeer.ConnectionString(fixture.DevHost.BaseAddress), "weather");
        using var stop = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        var read = 0;
        await foreach (var _ in consumer.ReadEventsFromPartitionAsync(partition, EventPosition.Earliest, stop.Token))
        {
            if (++read == Sends)
            {
                break;
            }
        }

        var d = Delta(before, await CountersAsync(fixture.DevHost.Client));
        Assert.InRange(d["amqpTransfersSent"], Sends, long.MaxValue);
        Assert.Equal(0, d["eventsCommitted"]);
    }

    [Fact]
    public async Task Counters_DurabilityNone_GroupCommitsWithoutFsync()
    {
        using var dir = new TempDirectory();
        await using var devHost = await RunningDevHost.StartAsync(Directory.CreateDirectory(Path.Combine(dir.Path, "app")).FullName, Path.Combine(dir.Path, "data"),
            RepoLayout.Current.EventHubsConfig, "EventHubs:Durability=None");
        var before = await CountersAsync(devHost.Client);
        for (var i = 0; i < Sends; i++)
        {
            using var response = await devHost.Client.SendAsync(Http.Post("/ingestion/messages", Http.Raw([1])));
            response.EnsureSuccessStatusCode();
        }

        var d = Delta(before, await CountersAsync(devHost.Client));
        Assert.Equal(Sends, d["groupCommits"]);
        Assert.Equal(0, d["fsyncCalls"]);
    }

    [Fact]
    public async Task Meter_InstrumentsReadTheCountersFields_SameTotals()
    {
        using var dir = new TempDirectory();
        // A name of its own: other tests open namespaces in this process, each publishing the same instruments.
        var name = "meter-" + Guid.NewGuid().ToString("N");
        await using var eventHubs = EventHubsNamespace.Open(TestData.Config with { Name = name }, dir.Path, new EventLogOptions(), TimeProvider.System);
        await eventHubs.AppendAsync("hub", "1", [TestData.Event("a"), TestData.Event("b")], CancellationToken.None);
        await eventHubs.AppendAsync("hub", "2", [TestData.Event("c")], CancellationToken.None);

        var observed = new Dictionary<string, long>();
        using var listener = new MeterListener();
        listener.InstrumentPublished = (instrument, l) =>
        {
            if (instrument.Meter.Name == "SensorPipeline.EventHubs")
            {
                l.EnableMeasurementEvents(instrument);
            }
        };
        listener.SetMeasurementEventCallback<long>((instrument, value, tags, _) =>
        {
            foreach (var tag in tags)
            {
                if (tag.Key == "namespace" && (string?)tag.Value == name)
                {
                    observed[instrument.Name] = value;
                }
            }
        });
        listener.Start();
        listener.RecordObservableInstruments();

        Assert.Equal(2, observed["groupCommits"]);
        Assert.Equal(3, observed["eventsCommitted"]);
        Assert.Equal(eventHubs.Counters.FsyncCalls, observed["fsyncCalls"]);
        Assert.InRange(observed["fsyncCalls"], 2, long.MaxValue);
    }

    /// <summary>A partition of the weather hub holding <see cref="Sends"/> events sent over REST.</summary>
    private async Task<string> CountersPartitionAsync()
    {
        for (var i = 0; i < Sends; i++)
        {
            using var response = await fixture.DevHost.Client.SendAsync(Http.Post("/weather/partitions/1/messages", Http.Raw([7])));
            response.EnsureSuccessStatusCode();
        }

        return "1";
    }

    private static async Task<Dictionary<string, long>> CountersAsync(HttpClient client)
    {
        var status = await Http.GetJsonAsync(client, "/status");
        return status.GetProperty("counters").EnumerateObject().ToDictionary(p => p.Name, p => p.Value.GetInt64());
    }

    private static Dictionary<string, long> Delta(Dictionary<string, long> before, Dictionary<string, long> after) =>
        after.ToDictionary(p => p.Key, p => p.Value - before[p.Key]);
}
