using Microsoft.Azure.Amqp;

namespace SensorPipeline.EventHubs.Amqp;

/// <summary>A session that ends with <c>amqp:decode-error</c>, not <c>amqp:internal-error</c>, when a link frame the
/// library could not read closed it: Microsoft.Azure.Amqp builds a link from an attach inside the session's frame
/// handling and, when that throws (a source of a foreign described type cast to a source), ends the session with the
/// exception. See <see cref="DecodeErrorConnection"/>.</summary>
internal sealed class DecodeErrorSession(AmqpConnection connection, AmqpSessionSettings settings, ILinkFactory linkFactory)
    : AmqpSession(connection, settings, linkFactory)
{
    protected override bool CloseInternal()
    {
        if (TerminalException is { } e && DecodeErrorConnection.ThrownReadingThePeersFrame(e))
        {
            TerminalException = DecodeErrorConnection.DecodeError(e);
        }

        return base.CloseInternal();
    }
}
