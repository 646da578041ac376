using Microsoft.Azure.Amqp;
using Microsoft.Azure.Amqp.Framing;
using Microsoft.Azure.Amqp.Sasl;
using Microsoft.Azure.Amqp.Transport;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using SensorPipeline.EventHubs.Http;

namespace SensorPipeline.EventHubs.Amqp;

/// <summary>The namespace's AMQP 1.0 endpoint: transports handed over by the devhost port (after protocol detection)
/// or the WebSocket route go through Microsoft.Azure.Amqp's protocol negotiation — SASL with <c>MSSBCBS</c> (the .NET
/// client) and <c>ANONYMOUS</c> (Node, Python), then AMQP — and become connections served by <see cref="AmqpRuntime"/>.
/// Identity comes from put-token, never from SASL. Past <see cref="AmqpOptions.MaxConnections"/> a connection is closed
/// right after its Open with <c>amqp:resource-limit-exceeded</c>.</summary>
public sealed class AmqpEndpoint : IDisposable
{
    private readonly AmqpOptions _options;
    private readonly ILogger _logger;
    private readonly AmqpSettings _settings;
    private readonly HandedOverTransports _inbox = new();
    private readonly AmqpTransportListener _listener;
    private readonly string _containerId;
    private readonly System.Collections.Concurrent.ConcurrentDictionary<AmqpConnection, byte> _open = new();
    private int _connections;
    private volatile bool _closed;

    public AmqpEndpoint(EventHubsNamespace eventHubs, SasVerifier sas, IOptions<AmqpOptions> options, TimeProvider time, ILoggerFactory loggers)
    {
        ArgumentNullException.ThrowIfNull(eventHubs);
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(loggers);
        _options = options.Value;
        _logger = loggers.CreateLogger("SensorPipeline.EventHubs.Amqp");
        _containerId = eventHubs.Name;
        _settings = new AmqpSettings { RuntimeProvider = new AmqpRuntime(eventHubs, sas, _options, time, _logger) };
        var sasl = new SaslTransportProvider();
        sasl.Versions.Add(new AmqpVersion(1, 0, 0));
        sasl.AddHandler(new SaslAnonymousHandler("MSSBCBS"));
        sasl.AddHandler(new SaslAnonymousHandler());
        _settings.TransportProviders.Add(sasl);
        var amqp = new AmqpTransportProvider();
        amqp.Versions.Add(new AmqpVersion(1, 0, 0));
        _settings.TransportProviders.Add(amqp);
        _listener = new AmqpTransportListener([_inbox], _settings);
        _listener.Listen(OnTransport);
    }

    public AmqpOptions Options => _options;

    /// <summary>Connections open now.</summary>
    public int ConnectionCount => Volatile.Read(ref _connections);

    /// <summary>True once <see cref="CloseAll"/> ran: new connections are refused, so a client that reconnects at once
    /// (the SDK's processors do) cannot hold Kestrel's shutdown open.</summary>
    internal bool Closed => _closed;

    /// <summary>Serves one transport until it ends (the caller keeps its underlying connection open until then).</summary>
    internal Task ServeAsync(PipeTransport transport)
    {
        _inbox.HandOver(transport);
        return transport.Ended;
    }

    /// <summary>Closes every connection (devhost is stopping): Kestrel waits for its connections before it stops, and an
    /// AMQP connection would otherwise stay open until the client leaves.</summary>
    public void CloseAll()
    {
        _closed = true;
        foreach (var connection in _open.Keys)
        {
            connection.SafeClose(new AmqpException(AmqpErrorCode.ConnectionForced, "devhost is stopping."));
        }
    }

    public void Dispose()
    {
        CloseAll();
        _listener.Close();
    }

    private void OnTransport(TransportListener listener, TransportAsyncCallbackArgs args)
    {
        var settings = new AmqpConnectionSettings
        {
            ContainerId = _containerId,
            MaxFrameSize = (uint)_options.MaxFrameSize,
            ChannelMax = (ushort)(_options.MaxSessionsPerConnection - 1),
            IdleTimeOut = 120_000,
        };
        AmqpConnection? connection = null;
        try
        {
            var open = Interlocked.Increment(ref _connections);
            if (open > _options.MaxConnections)
            {
                // The initiator fails its open with this error (Microsoft.Azure.Amqp reads it from the Open's properties),
                // so the SDK reports the limit instead of a connection that vanished.
                settings.Properties = new Fields { [AmqpConstants.OpenErrorName] = TooManyConnections() };
            }

            connection = _settings.RuntimeProvider.CreateConnection(args.Transport, (ProtocolHeader)args.UserToken, false, _settings, settings);
            connection.Closed += (_, _) =>
            {
                Interlocked.Decrement(ref _connections);
                _open.TryRemove(connection, out _);
            };
            _open.TryAdd(connection, 0);
            _ = OpenAsync(connection, open);
        }
        catch (Exception e) when (e is AmqpException or InvalidOperationException)
        {
            AmqpLog.ConnectionRefused(_logger, args.Transport.RemoteEndPoint, e.Message);
            args.Transport.SafeClose(e);
        }
    }

    private async Task OpenAsync(AmqpConnection connection, int open)
    {
        try
        {
            await Task.Factory.FromAsync(connection.BeginOpen, connection.EndOpen, TimeSpan.FromSeconds(60), null);
        }
        catch (Exception e) when (e is AmqpException or TimeoutException or OperationCanceledException or ObjectDisposedException or IOException)
        {
            connection.SafeClose(e);
            return;
        }

        if (open > _options.MaxConnections)
        {
            var error = TooManyConnections();
            AmqpLog.ConnectionRefused(_logger, connection.Identifier.ToString(), error.Description);
            connection.SafeClose(new AmqpException(error));
            return;
        }

        var id = connection.Identifier.ToString();
        AmqpLog.ConnectionOpened(_logger, id, connection.Settings.RemoteContainerId);
    }

    private Error TooManyConnections() => new()
    {
        Condition = AmqpErrorCode.ResourceLimitExceeded,
        Description = $"devhost serves at most {_options.MaxConnections} AMQP connections (EventHubs:Amqp:MaxConnections).",
    };

    /// <summary>The AMQP stack's listener side, fed by Kestrel (it opens no socket of its own).</summary>
    private sealed class HandedOverTransports() : TransportListener("devhost")
    {
        public void HandOver(TransportBase transport) => OnTransportAccepted(new TransportAsyncCallbackArgs { Transport = transport, CompletedSynchronously = false });

        protected override void OnListen()
        {
        }
    }
}
