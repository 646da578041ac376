using System.Diagnostics;
using Microsoft.Azure.Amqp;
using Microsoft.Azure.Amqp.Framing;
using Microsoft.Azure.Amqp.Transport;

namespace SensorPipeline.EventHubs.Amqp;

/// <summary>A connection that names a frame the library cannot read for what it is. Microsoft.Azure.Amqp decodes each
/// performative and builds links from it with casts and lookups that throw ordinary exceptions on a peer's malformed
/// fields (a string running past its frame, a source of a foreign described type, an attach without a name, an address
/// of the wrong type), which it answers with <c>amqp:internal-error</c>. Those are the peer's error: the connection is
/// closed with <c>amqp:decode-error</c> and the library's message (rule A13). An exception that passed through this
/// emulator's own code is left as it is, so a fault of ours still reads as one.</summary>
internal sealed class DecodeErrorConnection(TransportBase transport, ProtocolHeader protocolHeader, bool isInitiator, AmqpSettings amqpSettings, AmqpConnectionSettings connectionSettings)
    : AmqpConnection(transport, protocolHeader, isInitiator, amqpSettings, connectionSettings)
{
    protected override void OnFrameBuffer(ByteBuffer buffer)
    {
        try
        {
            base.OnFrameBuffer(buffer);
        }
        catch (Exception e) when (ThrownReadingThePeersFrame(e))
        {
            throw DecodeError(e);
        }
    }

    internal static AmqpException DecodeError(Exception e) =>
        new(AmqpErrorCode.DecodeError, $"A frame could not be read as its performative: {e.Message}");

    /// <summary>Not already an AMQP error, not a fatal one, and raised with none of this emulator's methods on the
    /// way (this one excepted): the library's own reading of the frame.</summary>
    internal static bool ThrownReadingThePeersFrame(Exception e) =>
        e is not (AmqpException or OutOfMemoryException or InsufficientExecutionStackException or ThreadAbortException) &&
        !new StackTrace(e, fNeedFileInfo: false).GetFrames().Any(frame =>
            frame.GetMethod()?.DeclaringType is { } type && type.Assembly == typeof(DecodeErrorConnection).Assembly && type != typeof(DecodeErrorConnection));
}
