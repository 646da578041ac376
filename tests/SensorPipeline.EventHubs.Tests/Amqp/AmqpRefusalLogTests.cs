using System.IO.Pipelines;
using System.Text.RegularExpressions;
using Microsoft.Azure.Amqp;
using Microsoft.Azure.Amqp.Encoding;
using Microsoft.Extensions.Options;
using SensorPipeline.EventHubs.Amqp;
using SensorPipeline.EventHubs.Http;

namespace SensorPipeline.EventHubs.Tests.Amqp;

/// <summary>Rule A11's refusal loop in devhost's log: a client that retries a refused attach at once (the .NET buffered
/// producer with idempotent retries, hundreds a second) costs one line for its first refusal, as any refusal, and then
/// a line now and then carrying how many more there were, not a line each. The endpoint in-process over pipes, a raw
/// Microsoft.Azure.Amqp client, the endpoint's log captured.</summary>
public sealed class AmqpRefusalLogTests
{
    private const int LinkRefused = 302;
    private const int LinkRefusalsRepeated = 307;
    private const int Attaches = 100;

    [Fact]
    public async Task LinkRefused_ManyIdempotentAttachesOnOneConnection_FirstLoggedAndTheRepeatsCountedAtClose()
    {
        var log = new CapturedLog();
        await using var peer = await InProcessPeer.StartAsync(log, TimeProvider.System);

        await RefuseAsync(peer.Client, Attaches);
        await peer.Client.DisposeAsync();
        await log.WaitForAsync(LinkRefusalsRepeated, AmqpPeer.Timeout);

        var refusals = log.Entries.Where(e => e.EventId is LinkRefused or LinkRefusalsRepeated).ToList();
        Assert.Single(refusals, e => e.EventId == LinkRefused);
        Assert.Contains("devhost does not serve idempotent publishing", refusals[0].Message, StringComparison.Ordinal);
        Assert.InRange(refusals.Count, 2, 5); // the first, and the repeats summarized (at close, or also every 10 s)
        Assert.Equal(Attaches - 1, refusals.Where(e => e.EventId == LinkRefusalsRepeated).Sum(e => Count(e.Message)));
    }

    [Fact]
    public async Task LinkRefused_RepeatsOverTheSummaryInterval_SummarizedWhileTheConnectionStaysOpen()
    {
        var log = new CapturedLog();
        var time = new ShiftedTimeProvider();
        await using var peer = await InProcessPeer.StartAsync(log, time);

        await RefuseAsync(peer.Client, 50);
        Assert.DoesNotContain(log.Entries, e => e.EventId == LinkRefusalsRepeated);
        time.Offset += TimeSpan.FromSeconds(11);
        await RefuseAsync(peer.Client, 1);

        var summary = Assert.Single(log.Entries, e => e.EventId == LinkRefusalsRepeated);
        Assert.Equal(50, Count(summary.Message)); // 49 repeats before the interval passed, and the one after it
        Assert.Single(log.Entries, e => e.EventId == LinkRefused);
    }

    private static async Task RefuseAsync(RawAmqp client, int attaches)
    {
        for (var i = 0; i < attaches; i++)
        {
            var refused = await Assert.ThrowsAsync<AmqpException>(() => client.OpenSenderAsync("hub/Partitions/0",
                s => s.DesiredCapabilities = new Microsoft.Azure.Amqp.Framing.Multiple<AmqpSymbol>([new AmqpSymbol("com.microsoft:idempotent-producer")])));
            Assert.Equal(AmqpErrorCode.NotImplemented, refused.Error.Condition);
        }
    }

    private static int Count(string summary) => int.Parse(Regex.Match(summary, @"refused (\d+) more times").Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture);

    /// <summary>The endpoint over pipes with the test's log and clock, and an authorized raw client connected to it.</summary>
    private sealed class InProcessPeer : IAsyncDisposable
    {
        private readonly TempDirectory _dir;
        private readonly EventHubsNamespace _eventHubs;
        private readonly AmqpEndpoint _endpoint;

        private InProcessPeer(TempDirectory dir, EventHubsNamespace eventHubs, AmqpEndpoint endpoint, RawAmqp client)
        {
            _dir = dir;
            _eventHubs = eventHubs;
            _endpoint = endpoint;
            Client = client;
        }

        public RawAmqp Client { get; }

        public static async Task<InProcessPeer> StartAsync(CapturedLog log, TimeProvider time)
        {
            var dir = new TempDirectory();
            var eventHubs = EventHubsNamespace.Open(TestData.Config, dir.Path, new EventLogOptions { Durability = Emulators.Common.DurabilityMode.None }, TimeProvider.System);
            var endpoint = new AmqpEndpoint(eventHubs, new SasVerifier(Options.Create(new SasOptions())), Options.Create(new AmqpOptions()), time, log);
            var toServer = new Pipe();
            var toClient = new Pipe();
            _ = endpoint.ServeAsync(new PipeTransport(toServer.Reader, toClient.Writer, null, null));
            var client = await RawAmqp.ConnectAsync(new PipeTransport(toClient.Reader, toServer.Writer, null, null));
            await client.PutTokenAsync("amqp://localhost/hub");
            return new InProcessPeer(dir, eventHubs, endpoint, client);
        }

        public async ValueTask DisposeAsync()
        {
            await Client.DisposeAsync();
            _endpoint.Dispose();
            await _eventHubs.DisposeAsync();
            _dir.Dispose();
        }
    }
}
