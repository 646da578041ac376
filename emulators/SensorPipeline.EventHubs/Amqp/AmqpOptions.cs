using Microsoft.Extensions.Options;

namespace SensorPipeline.EventHubs.Amqp;

/// <summary>The AMQP 1.0 endpoint's settings and limits. Bound from the configuration section
/// <c>EventHubs:Amqp</c>; validated at start-up (messages name the key).</summary>
public sealed class AmqpOptions
{
    /// <summary>The configuration section these options bind from.</summary>
    public const string SectionName = "EventHubs:Amqp";

    /// <summary>Serve AMQP on the devhost port (detected by its protocol header) and over WebSockets at
    /// <c>/$servicebus/websocket</c>. Default true.</summary>
    public bool Enabled { get; set; } = true;

    /// <summary>An extra loopback port for plain AMQP, so Microsoft's emulator connection string
    /// (<c>Endpoint=sb://localhost;…;UseDevelopmentEmulator=true</c>, which means port 5672) works unchanged.
    /// Default 5672; 0 = none. Used only when free at start-up (a busy port is logged and skipped). 1–65535.</summary>
    public int ExtraPort { get; set; } = 5672;

    /// <summary>Concurrent AMQP connections; one more is refused at its Open with <c>amqp:resource-limit-exceeded</c>.
    /// Default 256, 1–65535.</summary>
    public int MaxConnections { get; set; } = 256;

    /// <summary>Sessions per connection (the channel-max the endpoint's Open announces). The .NET client opens one session
    /// per link, so this also bounds links per connection. Default 256, 1–65535.</summary>
    public int MaxSessionsPerConnection { get; set; } = 256;

    /// <summary>Links per session (the handle-max of the endpoint's Begin). Default 8, 1–65535.</summary>
    public int MaxLinksPerSession { get; set; } = 8;

    /// <summary>The largest frame the endpoint accepts (its Open's max-frame-size). Default 65536 (what the SDKs ask),
    /// 512–65536: a frame's performative is decoded by Microsoft.Azure.Amqp, recursively, before devhost sees it, and
    /// 64 KiB holds at most 32,768 nested values, which it decodes (70,000 overflow a thread-pool stack).</summary>
    public int MaxFrameSize { get; set; } = 64 * 1024;

    /// <summary>How deep the values of a received message may nest (each described type, list, map or array is a
    /// level; an event's properties need 3). Checked on the message's bytes before any section is decoded; deeper is
    /// rejected with <c>amqp:decode-error</c>. Default 64 (the stack's own limit for lists and maps), 4–1024.</summary>
    public int MaxNestingDepth { get; set; } = 64;

    /// <summary>The largest request taken on <c>$cbs</c> and <c>$management</c> (announced as the link's
    /// max-message-size; a larger one detaches the link with <c>amqp:link:message-size-exceeded</c>). A put-token with
    /// a SAS token is under 2 KB, a READ under 1 KB. Default 16384, 1024–1048576.</summary>
    public int MaxRequestSize { get; set; } = 16 * 1024;

    /// <summary>Bytes of events a receiver link hands to the AMQP stack before it waits for them to leave (its link
    /// queue empty and the connection's socket not backed up), whatever credit the client granted: a client that
    /// grants credit and never reads holds at most this much. At least one event always goes, so 1 MiB is the least.
    /// Default 4194304 (4 MiB), 1048576–268435456.</summary>
    public int MaxQueuedBytesPerLink { get; set; } = 4 * 1024 * 1024;

    /// <summary>Credit granted to each sender link: messages received but not yet durable and settled. It bounds a link's
    /// memory (credit × the 1 MiB message limit, reached only by senders of 1 MiB messages) and, with fsync per group
    /// commit, how many sends of one link share an fsync: at 32 it held the .NET client's 64 sends in flight to 32 and
    /// AMQP to 0.95× REST (`./pipeline bench senders`). Default 128, 1–1000.</summary>
    public int SenderCredit { get; set; } = 128;

    /// <summary>Events a receiver link may hold unsent at most, whatever credit the client grants (the read ahead of
    /// one link). Default 300 (the SDKs' default prefetch), 1–10000.</summary>
    public int MaxReceiverBatch { get; set; } = 300;

    /// <summary>How long a new connection may take to negotiate: its first bytes, and then every step up to its Open
    /// (protocol header, SASL, the AMQP header, the Open frame) together; past it the connection is closed. A
    /// connection takes a <see cref="MaxConnections"/> slot only once open. Default 10 s, above 0 to 5 min.</summary>
    public TimeSpan HandshakeTimeout { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>How long an open connection may go without a put-token accepted on <c>$cbs</c> (the SDKs put one right
    /// after the Open); past it the connection is closed with <c>amqp:unauthorized-access</c>. Default 60 s, above 0 to
    /// 10 min.</summary>
    public TimeSpan AuthenticationTimeout { get; set; } = TimeSpan.FromSeconds(60);
}

/// <summary>Checks <see cref="AmqpOptions"/> at start-up.</summary>
public sealed class AmqpOptionsValidator : IValidateOptions<AmqpOptions>
{
    public ValidateOptionsResult Validate(string? name, AmqpOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var failures = new List<string>();
        Range(failures, nameof(options.ExtraPort), options.ExtraPort, 0, 65535);
        Range(failures, nameof(options.MaxConnections), options.MaxConnections, 1, 65535);
        Range(failures, nameof(options.MaxSessionsPerConnection), options.MaxSessionsPerConnection, 1, 65535);
        Range(failures, nameof(options.MaxLinksPerSession), options.MaxLinksPerSession, 1, 65535);
        Range(failures, nameof(options.MaxFrameSize), options.MaxFrameSize, 512, 64 * 1024);
        Range(failures, nameof(options.MaxNestingDepth), options.MaxNestingDepth, 4, 1024);
        Range(failures, nameof(options.MaxRequestSize), options.MaxRequestSize, 1024, 1024 * 1024);
        Range(failures, nameof(options.MaxQueuedBytesPerLink), options.MaxQueuedBytesPerLink, 1024 * 1024, 256 * 1024 * 1024);
        Range(failures, nameof(options.SenderCredit), options.SenderCredit, 1, 1000);
        Range(failures, nameof(options.MaxReceiverBatch), options.MaxReceiverBatch, 1, 10000);
        Within(failures, nameof(options.HandshakeTimeout), options.HandshakeTimeout, TimeSpan.FromMinutes(5));
        Within(failures, nameof(options.AuthenticationTimeout), options.AuthenticationTimeout, TimeSpan.FromMinutes(10));

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }

    private static void Within(List<string> failures, string key, TimeSpan value, TimeSpan max)
    {
        if (value <= TimeSpan.Zero || value > max)
        {
            failures.Add($"{AmqpOptions.SectionName}:{key} must be above 0 and at most {max}, got {value}.");
        }
    }

    private static void Range(List<string> failures, string key, int value, int min, int max)
    {
        if (value < min || value > max)
        {
            failures.Add($"{AmqpOptions.SectionName}:{key} must be from {min} to {max}, got {value}.");
        }
    }
}
