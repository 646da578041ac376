using System.Buffers;
using System.IO.Pipelines;
using System.Net;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;
using SensorPipeline.Emulators.Common;
using SensorPipeline.EventHubs;
using SensorPipeline.EventHubs.Amqp;
using SensorPipeline.EventHubs.Http;

namespace SensorPipeline.Fuzz.Targets;

/// <summary>
/// AMQP frames after a valid Open, through the Event Hubs emulator's whole AMQP endpoint in-process: the input is the
/// client's bytes past the protocol header and Open (<see cref="AmqpFrames.Prefix"/>), so mutations land on sessions,
/// links, flow (credit), <c>$cbs</c> and <c>$management</c> requests, transfers and detaches instead of dying at the
/// header. The connection is served over a pipe as devhost serves a socket; the input is written whole and the client's
/// side then ends (EOF), as a client that sends and disconnects. A crash is: the endpoint answering
/// <c>amqp:internal-error</c> (an exception nobody expected, ours or the library's), a connection still open
/// <see cref="Deadline"/> after the client's end, anything it keeps once the connection closed (a connection slot,
/// an owner-level registration), or an exception from devhost's own code that the AMQP stack caught in its frame handling
/// and closed a link or session with (<see cref="AmqpStackFaults"/>: the peer sees a detach, not an internal error).
/// Nothing is a refusal: every protocol error is answered on the wire.
/// </summary>
internal static class AmqpSessionTarget
{
    /// <summary>Generous: a connection closes in milliseconds after the client's end; only a stuck one exceeds it.</summary>
    private static readonly TimeSpan Deadline = TimeSpan.FromSeconds(5);

    /// <summary>The one namespace and endpoint of the process (afl's persistent loop): every input is a new connection
    /// to it, and must leave it as it found it. Events are kept in the page cache only (no fsync per input).</summary>
    private static readonly Lazy<AmqpEndpoint> Endpoint = new(() =>
    {
        var config = new NamespaceConfig("fuzz", [new EventHubDescription("seismic", 2, ["$Default", "fuzz"])]);
        var eventHubs = EventHubsNamespace.Open(config, ScratchDirectory.Fresh("amqp-session"), new EventLogOptions { Durability = DurabilityMode.None }, TimeProvider.System);
        return new AmqpEndpoint(eventHubs, new SasVerifier(Options.Create(new SasOptions())), Options.Create(new AmqpOptions()), TimeProvider.System, NullLoggerFactory.Instance);
    });

    /// <summary>Numbers the connections: each is told apart by its remote endpoint, so the stack's traces of one are
    /// not blamed on another served at the same time.</summary>
    private static long _exchanges;

    internal static void Run(byte[] input) => Exchange(input);

    /// <summary>Serves <paramref name="input"/> (after the prefix) on a new connection and returns the endpoint's
    /// answer, every byte it wrote; throws <see cref="InvariantException"/> on a crash.</summary>
    internal static byte[] Exchange(byte[] input)
    {
        var endpoint = Endpoint.Value;
        var remote = new DnsEndPoint($"exchange-{Interlocked.Increment(ref _exchanges)}", 0);
        AmqpStackFaults.Instance.Watch(remote.ToString());
        try
        {
            var toServer = new Pipe();
            var toClient = new Pipe();
            var answered = new AnswerClock();
            var answers = ReadAllAsync(toClient.Reader, answered);
            var ended = endpoint.ServeAsync(new PipeTransport(toServer.Reader, toClient.Writer, null, remote));
            toServer.Writer.Write(AmqpFrames.Prefix);
            toServer.Writer.Write(input);
            toServer.Writer.FlushAsync().AsTask().Wait();
            answered.WaitUntilQuiet();
            toServer.Writer.Complete();
            if (!ended.Wait(Deadline))
            {
                throw new InvariantException($"the connection was still open {Deadline.TotalSeconds} s after the client's end");
            }

            toClient.Writer.Complete();
            toServer.Reader.Complete();
            if (!answers.Wait(Deadline))
            {
                throw new InvariantException("the endpoint's answer did not end with its connection");
            }

            if (AmqpFrames.InternalError(answers.Result) is { } at)
            {
                throw new InvariantException($"the endpoint answered amqp:internal-error (byte {at} of its answer): " +
                    System.Text.Encoding.Latin1.GetString(answers.Result.AsSpan(at, Math.Min(300, answers.Result.Length - at))));
            }

            AssertReleased(endpoint);
            if (AmqpStackFaults.Instance.Take(remote.ToString()) is [_, ..] faults)
            {
                throw new InvariantException("devhost's code threw into the AMQP stack's frame handling: " + string.Join(" | ", faults));
            }

            return answers.Result;
        }
        finally
        {
            AmqpStackFaults.Instance.Take(remote.ToString()); // stops recording for an input that crashed otherwise
        }
    }

    /// <summary>The closed connection holds nothing: its slot and its receivers' owner-level registrations are gone
    /// (both are released by Closed handlers, which may run just after the transport ended).</summary>
    private static void AssertReleased(AmqpEndpoint endpoint)
    {
        var until = DateTime.UtcNow + Deadline;
        while (endpoint.TrackedConnections + endpoint.ConnectionCount + endpoint.Receivers > 0)
        {
            if (DateTime.UtcNow > until)
            {
                throw new InvariantException($"{Deadline.TotalSeconds} s after its connection closed the endpoint still holds " +
                    $"{endpoint.TrackedConnections} connection(s), {endpoint.ConnectionCount} slot(s), {endpoint.Receivers} receiver(s)");
            }

            Thread.Sleep(1);
        }
    }

    private static async Task<byte[]> ReadAllAsync(PipeReader reader, AnswerClock answered)
    {
        using var all = new MemoryStream();
        while (true)
        {
            var result = await reader.ReadAsync();
            answered.Mark();
            foreach (var segment in result.Buffer)
            {
                all.Write(segment.Span);
            }

            reader.AdvanceTo(result.Buffer.End);
            if (result.IsCompleted)
            {
                await reader.CompleteAsync();
                return all.ToArray();
            }
        }
    }

    /// <summary>When the endpoint last wrote. The client's end waits until it has been quiet for <see cref="Quiet"/>
    /// (at most <see cref="MaxWait"/>), so work an input started after its frames (a receiver resolving its start
    /// position, then delivering on its credit) mostly runs before the disconnect. Timing-dependent by nature: afl
    /// reports it as stability; whatever is cut short is the disconnect path, fuzzed too.</summary>
    private sealed class AnswerClock
    {
        private static readonly TimeSpan Quiet = TimeSpan.FromMilliseconds(5);
        private static readonly TimeSpan MaxWait = TimeSpan.FromMilliseconds(500);
        private long _last = Environment.TickCount64;

        public void Mark() => Volatile.Write(ref _last, Environment.TickCount64);

        public void WaitUntilQuiet()
        {
            var start = Environment.TickCount64;
            while (Environment.TickCount64 - Volatile.Read(ref _last) < Quiet.TotalMilliseconds && Environment.TickCount64 - start < MaxWait.TotalMilliseconds)
            {
                Thread.Sleep(1);
            }
        }
    }
}
