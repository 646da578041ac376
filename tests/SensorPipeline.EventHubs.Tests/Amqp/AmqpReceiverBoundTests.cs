using System.Buffers;
using System.IO.Pipelines;
using Microsoft.Azure.Amqp;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;
using SensorPipeline.EventHubs.Amqp;
using SensorPipeline.EventHubs.Http;

namespace SensorPipeline.EventHubs.Tests.Amqp;

/// <summary>Rule A13's bound on what a receiver link holds, end to end: the endpoint in-process over pipes (as devhost
/// serves a socket), a raw Microsoft.Azure.Amqp receiver on the other end that grants far more credit than the
/// partition holds, and the client's side of the connection stopped from reading, as a client that never reads its
/// socket. What the endpoint holds for it is what its receiver links handed to the AMQP stack less what the client
/// read off the wire.</summary>
public sealed class AmqpReceiverBoundTests(Xunit.Abstractions.ITestOutputHelper output)
{
    private const int EventSize = 1_000_000;
    private const int Events = 40;

    /// <summary>MaxQueuedBytesPerLink's documented default, which this test holds.</summary>
    private const int Bound = 4 * 1024 * 1024;

    /// <summary>The pipe between the stack and the client (its pause threshold, 64 KiB), a write in flight, and AMQP's
    /// framing of the events counted on the wire but not in the events' bytes.</summary>
    private const long Slack = 1024 * 1024;

    [Fact]
    public async Task Receiver_LargeCreditAndAClientThatStopsReading_EndpointHoldsAtMostTheLinkBound()
    {
        var options = new AmqpOptions();
        Assert.Equal(Bound, options.MaxQueuedBytesPerLink);
        using var dir = new TempDirectory();
        await using var eventHubs = EventHubsNamespace.Open(TestData.Config, dir.Path, new EventLogOptions { Durability = Emulators.Common.DurabilityMode.None }, TimeProvider.System);
        for (var i = 0; i < Events; i++)
        {
            await eventHubs.AppendAsync("hub", "0", [new EventToAppend(new byte[EventSize], null, null)], CancellationToken.None);
        }

        using var endpoint = new AmqpEndpoint(eventHubs, new SasVerifier(Options.Create(new SasOptions())), Options.Create(options), TimeProvider.System, NullLoggerFactory.Instance);
        var toServer = new Pipe();
        var fromServer = new Pipe();
        var toClient = new Pipe();
        var server = new PipeTransport(toServer.Reader, fromServer.Writer, null, null);
        _ = endpoint.ServeAsync(server);
        await using var wire = new PausableWire(fromServer.Reader, toClient.Writer, () => eventHubs.Counters.AmqpBytesHandedToReceivers);
        await using var raw = await RawAmqp.ConnectAsync(new PipeTransport(toClient.Reader, toServer.Writer, null, null));
        await raw.PutTokenAsync("amqp://localhost/hub");
        var receiver = await raw.OpenReceiverAsync("hub/ConsumerGroups/$Default/Partitions/0", credit: 0);

        wire.Pause();
        receiver.SetTotalLinkCredit(1_000, applyNow: true, updateAutoFlow: true);
        // A whole read handed over and the endpoint's writes waiting for the client: the link could now hold the most.
        await Eventually.ValueAsync(_ =>
            {
                wire.Sample();
                return Task.FromResult((Handed: eventHubs.Counters.AmqpBytesHandedToReceivers, server.IsBackedUp));
            },
            s => s.Handed >= Bound && s.IsBackedUp, "a read handed to the stack and the endpoint's writes backed up");
        wire.Sample();
        wire.Resume();
        for (var i = 0; i < Events; i++)
        {
            using var message = await receiver.ReceiveMessageAsync(AmqpPeer.Timeout);
            Assert.NotNull(message);
            Assert.Equal((long)i, (long)message.MessageAnnotations.Map["x-opt-sequence-number"]!);
            Assert.Equal(EventSize, message.DataBody.Sum(data => ((ArraySegment<byte>)data.Value).Count));
        }

        output.WriteLine($"held at most {wire.MostHeld:N0} bytes (bound {Bound:N0} + one event of {EventSize:N0})");
        Assert.True(wire.MostHeld <= Bound + EventSize + Slack, $"the endpoint held {wire.MostHeld:N0} bytes for a receiver whose client did not read; the bound is {Bound:N0} + one event");
    }

    /// <summary>Copies the endpoint's output to the client, and can stop: the endpoint's pipe then fills and its writes
    /// wait, as a socket whose peer does not read. Samples what the endpoint holds (handed less read) at every copy.</summary>
    private sealed class PausableWire : IAsyncDisposable
    {
        private readonly PipeReader _from;
        private readonly PipeWriter _to;
        private readonly Func<long> _handed;
        private readonly CancellationTokenSource _stop = new();
        private readonly Task _copying;
        private TaskCompletionSource _open = new(TaskCreationOptions.RunContinuationsAsynchronously);
        private long _read;
        private long _mostHeld;

        public PausableWire(PipeReader from, PipeWriter to, Func<long> handed)
        {
            _from = from;
            _to = to;
            _handed = handed;
            _open.SetResult();
            _copying = CopyAsync();
        }

        public long MostHeld => Interlocked.Read(ref _mostHeld);

        public void Pause() => Interlocked.Exchange(ref _open, new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously));

        public void Resume() => Volatile.Read(ref _open).TrySetResult();

        public void Sample()
        {
            var held = _handed() - Interlocked.Read(ref _read);
            long most;
            while (held > (most = Interlocked.Read(ref _mostHeld)) && Interlocked.CompareExchange(ref _mostHeld, held, most) != most)
            {
            }
        }

        public async ValueTask DisposeAsync()
        {
            await _stop.CancelAsync();
            Resume();
            await _copying.ContinueWith(_ => { }, TaskScheduler.Default);
            _stop.Dispose();
        }

        private async Task CopyAsync()
        {
            while (!_stop.IsCancellationRequested)
            {
                await Volatile.Read(ref _open).Task.WaitAsync(_stop.Token);
                var result = await _from.ReadAsync(_stop.Token);
                foreach (var segment in result.Buffer)
                {
                    _to.Write(segment.Span);
                }

                Interlocked.Add(ref _read, result.Buffer.Length);
                _from.AdvanceTo(result.Buffer.End);
                await _to.FlushAsync(_stop.Token);
                Sample();
                if (result.IsCompleted)
                {
                    return;
                }
            }
        }
    }
}
