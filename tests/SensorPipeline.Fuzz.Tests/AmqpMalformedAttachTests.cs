using System.Text;
using Microsoft.Azure.Amqp;
using Microsoft.Azure.Amqp.Encoding;
using Microsoft.Azure.Amqp.Framing;
using SensorPipeline.Fuzz.Targets;

namespace SensorPipeline.Fuzz.Tests;

/// <summary>Attach frames Microsoft.Azure.Amqp cannot read as an attach (the kinds the <c>amqp-session</c> campaign
/// found): the library throws while decoding or building the link, which it would answer with
/// <c>amqp:internal-error</c>. The endpoint closes the connection with <c>amqp:decode-error</c> instead and keeps
/// serving the next connection.</summary>
[Trait("Category", "Fast")]
public sealed class AmqpMalformedAttachTests
{
    public static TheoryData<string> Malformed() => ["string-past-the-frame", "foreign-described-source"];

    [Theory]
    [MemberData(nameof(Malformed))]
    public void Exchange_MalformedAttach_ClosedWithDecodeErrorAndTheNextConnectionServed(string kind)
    {
        var begin = AmqpFrames.Encode(0, new Begin { NextOutgoingId = 0, IncomingWindow = 5_000, OutgoingWindow = 5_000, HandleMax = 15 });

        var answer = Encoding.Latin1.GetString(AmqpSessionTarget.Exchange([.. begin, .. MalformedAttach(kind)]));

        Assert.Contains("amqp:decode-error", answer, StringComparison.Ordinal);
        Assert.DoesNotContain("amqp:internal-error", answer, StringComparison.Ordinal);
        var next = Encoding.Latin1.GetString(AmqpSessionTarget.Exchange([.. begin, .. Attach(new Source { Address = "$management" }, "link-0"), .. AmqpFrames.Encode(0, new Close())]));
        Assert.Contains("$management", next, StringComparison.Ordinal); // the next connection's attach is answered
    }

    private static byte[] MalformedAttach(string kind) => kind switch
    {
        // The link name's str8 length claims 255 bytes; the frame holds far fewer.
        "string-past-the-frame" => Lengthened(Attach(new Source { Address = "client" }, "link-0"), "link-0"),
        "foreign-described-source" => Attach(new DescribedType(new AmqpSymbol("example:not-a-source"), "x"), "link-0"),
        _ => throw new ArgumentOutOfRangeException(nameof(kind)),
    };

    private static byte[] Attach(object source, string name) => AmqpFrames.Encode(0, new Attach
    {
        LinkName = name,
        Handle = 0u,
        Role = false,
        Source = source,
        Target = new Target { Address = "$management" },
        SndSettleMode = 0,
        RcvSettleMode = 0,
        InitialDeliveryCount = 0,
    });

    private static byte[] Lengthened(byte[] frame, string text)
    {
        var at = frame.AsSpan().IndexOf(Encoding.ASCII.GetBytes(text));
        Assert.Equal((byte)text.Length, frame[at - 1]);
        frame[at - 1] = 0xFF;
        return frame;
    }
}
