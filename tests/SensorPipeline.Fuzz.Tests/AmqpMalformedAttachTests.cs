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

    /// <summary>A put-token behind an attach that makes devhost end the session: the request's link is closing when
    /// the request arrives, so it can be neither settled nor answered. The request node must let it go, not throw into
    /// the AMQP stack (which recorded "Object 'receiverN' is closed" from <c>DisposeMessage</c> and closed the link with
    /// that error, as the campaign's inputs crash-568d70371c13 and crash-df6c62db1360 showed). The target fails the exchange
    /// on such an error (<see cref="AmqpStackFaults"/>).</summary>
    [Fact]
    public void Exchange_RequestArrivingAfterDevhostEndedItsSession_NothingThrownIntoTheStack()
    {
        var answer = Encoding.Latin1.GetString(AmqpSessionTarget.Exchange([.. SeedCorpus.Begin(), .. SeedCorpus.CbsLinks(),
            .. Attach(new DescribedType(new AmqpSymbol("example:not-a-source"), "x"), "link-2", handle: 2), .. SeedCorpus.PutTokenRequest()]));

        Assert.Contains("amqp:decode-error", answer, StringComparison.Ordinal); // the session ended for the attach
        Assert.DoesNotContain("put-token-1", answer, StringComparison.Ordinal); // and the request was not answered
        var next = Encoding.Latin1.GetString(AmqpSessionTarget.Exchange([.. SeedCorpus.Begin(), .. SeedCorpus.CbsLinks(), .. SeedCorpus.PutTokenRequest()]));
        Assert.Contains("put-token-1", next, StringComparison.Ordinal); // the next connection's put-token is answered
    }

    /// <summary>A put-token whose reply link devhost is closing: the reply link was attached last for its reply-to, on
    /// a second session that devhost ended for a malformed attach. A closing link carries no reply, so the request is
    /// refused as one without a reply link, on its own link that stays open.</summary>
    [Fact]
    public void Exchange_RequestWhoseReplyLinkDevhostIsClosing_RejectedForNoReplyLink()
    {
        byte[] secondSession =
        [
            .. AmqpFrames.Encode(1, new Begin { NextOutgoingId = 0, IncomingWindow = 5_000, OutgoingWindow = 5_000, HandleMax = 15 }),
            .. AmqpFrames.Encode(1, new Attach { LinkName = "cbs-reply-2", Handle = 0u, Role = true, Source = new Source { Address = "$cbs" }, Target = new Target { Address = "cbs-reply" }, SndSettleMode = 1, RcvSettleMode = 0 }),
            .. AmqpFrames.Encode(1, new Attach { LinkName = "link-1", Handle = 1u, Role = false, Source = new DescribedType(new AmqpSymbol("example:not-a-source"), "x"), Target = new Target { Address = "$management" }, SndSettleMode = 0, RcvSettleMode = 0, InitialDeliveryCount = 0 }),
        ];

        var answer = Encoding.Latin1.GetString(AmqpSessionTarget.Exchange([.. SeedCorpus.Begin(), .. SeedCorpus.CbsLinks(), .. secondSession, .. SeedCorpus.PutTokenRequest()]));

        Assert.Contains("amqp:decode-error", answer, StringComparison.Ordinal); // the second session ended
        Assert.Contains("No reply link is attached for reply-to 'cbs-reply'", answer, StringComparison.Ordinal);
    }

    private static byte[] MalformedAttach(string kind) => kind switch
    {
        // The link name's str8 length claims 255 bytes; the frame holds far fewer.
        "string-past-the-frame" => Lengthened(Attach(new Source { Address = "client" }, "link-0"), "link-0"),
        "foreign-described-source" => Attach(new DescribedType(new AmqpSymbol("example:not-a-source"), "x"), "link-0"),
        _ => throw new ArgumentOutOfRangeException(nameof(kind)),
    };

    private static byte[] Attach(object source, string name, uint handle = 0) => AmqpFrames.Encode(0, new Attach
    {
        LinkName = name,
        Handle = handle,
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
