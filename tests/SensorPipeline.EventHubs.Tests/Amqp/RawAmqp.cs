using Microsoft.Azure.Amqp;
using Microsoft.Azure.Amqp.Framing;

namespace SensorPipeline.EventHubs.Tests.Amqp;

/// <summary>Microsoft.Azure.Amqp as a bare client: plain AMQP (no SASL) on the devhost port, one session, links by
/// address, and messages made of raw bytes, so a test can send what no SDK would.</summary>
internal sealed class RawAmqp : IAsyncDisposable
{
    private static readonly TimeSpan Timeout = AmqpPeer.Timeout;

    private RawAmqp(AmqpConnection connection, AmqpSession session)
    {
        Connection = connection;
        Session = session;
    }

    public AmqpConnection Connection { get; }

    public AmqpSession Session { get; }

    public static async Task<RawAmqp> ConnectAsync(Uri devHost) =>
        await OpenAsync(await new AmqpConnectionFactory().OpenConnectionAsync(new Uri($"amqp://127.0.0.1:{devHost.Port}"), Timeout));

    /// <summary>The client over a transport of the test's own (an in-process endpoint's pipes), plain AMQP 1.0.</summary>
    public static async Task<RawAmqp> ConnectAsync(Microsoft.Azure.Amqp.Transport.TransportBase transport)
    {
        var settings = new AmqpSettings();
        var amqp = new Microsoft.Azure.Amqp.Transport.AmqpTransportProvider();
        amqp.Versions.Add(new AmqpVersion(1, 0, 0));
        settings.TransportProviders.Add(amqp);
        var connection = new AmqpConnection(transport, new ProtocolHeader(ProtocolId.Amqp, new AmqpVersion(1, 0, 0)), true, settings,
            new AmqpConnectionSettings { ContainerId = "raw-client", HostName = "localhost", MaxFrameSize = 64 * 1024 });
        await connection.OpenAsync(Timeout);
        return await OpenAsync(connection);
    }

    private static async Task<RawAmqp> OpenAsync(AmqpConnection connection)
    {
        var session = connection.CreateSession(new AmqpSessionSettings());
        await session.OpenAsync(Timeout);
        return new RawAmqp(connection, session);
    }

    /// <summary>Puts a SAS token for <paramref name="audience"/> on <c>$cbs</c> (as the SDKs do before attaching).</summary>
    public async Task PutTokenAsync(string audience)
    {
        var replies = await OpenReceiverAsync("$cbs", 1, s => ((Target)s.Target).Address = "raw-cbs-reply");
        replies.SetTotalLinkCredit(1, applyNow: true, updateAutoFlow: true);
        var cbs = await OpenSenderAsync("$cbs");
        using var request = AmqpMessage.Create(new AmqpValue { Value = Sas.Token(audience) });
        request.ApplicationProperties.Map["operation"] = "put-token";
        request.ApplicationProperties.Map["type"] = "servicebus.windows.net:sastoken";
        request.ApplicationProperties.Map["name"] = audience;
        request.Properties.MessageId = "put-token-1";
        request.Properties.ReplyTo = "raw-cbs-reply";
        await SendAsync(cbs, request);
        using var reply = await replies.ReceiveMessageAsync(Timeout);
        Assert.Equal(202, reply.ApplicationProperties.Map["status-code"]);
    }

    public async Task<SendingAmqpLink> OpenSenderAsync(string address, Action<AmqpLinkSettings>? configure = null)
    {
        var settings = new AmqpLinkSettings
        {
            LinkName = $"raw-sender-{Guid.NewGuid():N}",
            Role = false,
            Source = new Source { Address = "raw-client" },
            Target = new Target { Address = address },
            SettleType = SettleMode.SettleOnDispose,
        };
        configure?.Invoke(settings);
        var link = new SendingAmqpLink(settings);
        link.AttachTo(Session);
        await link.OpenAsync(Timeout);
        return link;
    }

    public async Task<ReceivingAmqpLink> OpenReceiverAsync(string address, uint credit, Action<AmqpLinkSettings>? configure = null)
    {
        var settings = new AmqpLinkSettings
        {
            LinkName = $"raw-receiver-{Guid.NewGuid():N}",
            Role = true,
            Source = new Source { Address = address },
            Target = new Target { Address = "raw-client" },
            SettleType = SettleMode.SettleOnSend,
            TotalLinkCredit = credit,
            AutoSendFlow = false,
        };
        configure?.Invoke(settings);
        var link = new ReceivingAmqpLink(settings);
        link.AttachTo(Session);
        await link.OpenAsync(Timeout);
        return link;
    }

    public static Task<Outcome> SendAsync(SendingAmqpLink link, AmqpMessage message) =>
        link.SendMessageAsync(message, new ArraySegment<byte>(Guid.NewGuid().ToByteArray()), AmqpConstants.NullBinary, Timeout);

    /// <summary>A message whose encoded sections are exactly <paramref name="sections"/>, sent as they are (a message
    /// made from a stream, or an output message, would be re-encoded by the client first).</summary>
    public static AmqpMessage RawMessage(byte[] sections) =>
        AmqpMessage.CreateAmqpStreamMessage(new BufferListStream([new ArraySegment<byte>(sections)]), payloadInitialized: true);

    /// <summary>An amqp-value section holding described types nested <paramref name="depth"/> deep in their descriptors:
    /// 0x00 repeated, a null descriptor, then each level's null value (two bytes a level).</summary>
    public static byte[] NestedValueSection(int depth)
    {
        var bytes = new byte[3 + depth + 1 + depth];
        bytes[0] = 0x00;
        bytes[1] = 0x53;
        bytes[2] = 0x77;
        bytes.AsSpan(3 + depth).Fill(0x40);
        return bytes;
    }

    /// <summary>Waits until <paramref name="link"/> is closed by the peer and returns the error it was closed with.</summary>
    public static async Task<Error?> ClosedWithAsync(AmqpObject link)
    {
        var closed = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        link.Closed += (_, _) => closed.TrySetResult();
        if (link.State is AmqpObjectState.End or AmqpObjectState.Faulted)
        {
            closed.TrySetResult();
        }

        await closed.Task.WaitAsync(Timeout);
        return (link.TerminalException as AmqpException)?.Error;
    }

    public async ValueTask DisposeAsync()
    {
        Connection.SafeClose();
        await Task.CompletedTask;
    }
}
