using Microsoft.Azure.Amqp;
using Microsoft.Azure.Amqp.Framing;

namespace SensorPipeline.Fuzz;

/// <summary>AMQP frames as Microsoft.Azure.Amqp encodes them (the library the Event Hubs SDKs send with), for the
/// <c>amqp-session</c> target and its seed inputs.</summary>
internal static class AmqpFrames
{
    /// <summary>What every <c>amqp-session</c> input follows: the plain AMQP 1.0 protocol header (devhost takes AMQP
    /// without SASL, as the raw-client tests do) and an Open.</summary>
    public static byte[] Prefix { get; } =
    [
        .. "AMQP\0\u0001\0\0"u8,
        .. Encode(0, new Open { ContainerId = "fuzz-client", HostName = "localhost", MaxFrameSize = 65_536, ChannelMax = 7 }),
    ];

    private static ReadOnlySpan<byte> InternalErrorSymbol => "amqp:internal-error"u8;

    /// <summary>One frame on <paramref name="channel"/>: the performative, then <paramref name="payload"/> (a transfer's
    /// message bytes).</summary>
    public static byte[] Encode(ushort channel, Performative performative, byte[]? payload = null)
    {
        using var buffer = Frame.EncodeCommand(FrameType.Amqp, channel, performative, payload?.Length ?? 0);
        return [.. buffer.Buffer.AsSpan(buffer.Offset, buffer.Length), .. payload ?? []];
    }

    /// <summary>Where the endpoint's answer names <c>amqp:internal-error</c> (in a close, end, detach or rejected
    /// outcome), or null.</summary>
    public static int? InternalError(byte[] answer) =>
        answer.AsSpan().IndexOf(InternalErrorSymbol) is var at and >= 0 ? at : null;
}
