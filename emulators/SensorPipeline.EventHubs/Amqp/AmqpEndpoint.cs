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
/// Identity comes from put-token, never from SASL. A connection must reach its Open within
/// <see cref="AmqpOptions.HandshakeTimeout"/> and put a token within <see cref="AmqpOptions.AuthenticationTimeout"/>
/// after it. Only open connections take one of the <see cref="AmqpOptions.MaxConnections"/> slots; past them a
/// connection is closed right after its Open with <c>amqp:resource-limit-exceeded</c>.</summary>
public sealed class AmqpEndpoint : IDisposable
{
    private readonly AmqpOptions _options;
    private readonly ILogger _logger;
    private readonly AmqpSettings _settings;
    private readonly HandedOverTransports _inbox = new();
    private readonly AmqpTransportListener _listener;
    private readonly string _containerId;
    private readonly AmqpRuntime _runtime;
    private readonly TimeProvider _time;
    /// <summary>Connections not yet closed; the value is 1 once the connection holds a slot (it opened).</summary>
    private readonly System.Collections.Concurrent.ConcurrentDictionary<AmqpConnection, byte> _open = new();
    private readonly System.Runtime.CompilerServices.ConditionalWeakTable<TransportAsyncCallbackArgs, PipeTransport> _handedOver = [];
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
        _time = time;
        _runtime = new AmqpRuntime(eventHubs, sas, _options, time, _logger);
        _settings = new AmqpSettings { RuntimeProvider = _runtime };
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

    /// <summary>Connections open now (those still negotiating hold no slot).</summary>
    public int ConnectionCount => Volatile.Read(ref _connections);

    /// <summary>Connections the endpoint still tracks, negotiating or open: zero once every connection has closed.</summary>
    internal int TrackedConnections => _open.Count;

    /// <summary>Receiver links registered for owner levels: zero once every connection has closed.</summary>
    internal int Receivers => _runtime.Receivers;

    /// <summary>True once <see cref="CloseAll"/> ran: new connections are refused, so a client that reconnects at once
    /// (the SDK's processors do) cannot hold Kestrel's shutdown open.</summary>
    internal bool Closed => _closed;

    /// <summary>Serves one transport until it ends (the caller keeps its underlying connection open until then).</summary>
    internal Task ServeAsync(PipeTransport transport)
    {
        transport.AbortUnlessNegotiatedWithin(_options.HandshakeTimeout, _time);
        _inbox.HandOver(transport, _handedOver);
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
            if (Volatile.Read(ref _connections) >= _options.MaxConnections)
            {
                // The initiator fails its open with this error (Microsoft.Azure.Amqp reads it from the Open's properties),
                // so the SDK reports the limit instead of a connection that vanished.
                settings.Properties = new Fields { [AmqpConstants.OpenErrorName] = TooManyConnections() };
            }

            connection = _settings.RuntimeProvider.CreateConnection(args.Transport, (ProtocolHeader)args.UserToken, false, _settings, settings);
            connection.Closed += (_, _) =>
            {
                if (_open.TryRemove(connection, out var slot) && slot == 1)
                {
                    Interlocked.Decrement(ref _connections);
                }
            };
            _open.TryAdd(connection, 0);
            _handedOver.TryGetValue(args, out var pipe);
            _runtime.Register(connection, pipe);
            _ = OpenAsync(connection, pipe, refused: settings.Properties is not null);
        }
        catch (Exception e) when (e is AmqpException or InvalidOperationException)
        {
            AmqpLog.ConnectionRefused(_logger, args.Transport.RemoteEndPoint, e.Message);
            args.Transport.SafeClose(e);
        }
    }

    private async Task OpenAsync(AmqpConnection connection, PipeTransport? pipe, bool refused)
    {
        try
        {
            await Task.Factory.FromAsync(connection.BeginOpen, connection.EndOpen, _options.HandshakeTimeout, null);
        }
        catch (Exception e) when (e is AmqpException or TimeoutException or OperationCanceledException or ObjectDisposedException or IOException)
        {
            connection.SafeClose(e);
            return;
        }

        pipe?.Negotiated();
        if (refused || !TakeSlot(connection))
        {
            var error = TooManyConnections();
            AmqpLog.ConnectionRefused(_logger, connection.Identifier.ToString(), error.Description);
            connection.SafeClose(new AmqpException(error));
            return;
        }

        var id = connection.Identifier.ToString();
        AmqpLog.ConnectionOpened(_logger, id, connection.Settings.RemoteContainerId);
        CloseUnlessAuthenticatedWithin(connection, _options.AuthenticationTimeout);
    }

    /// <summary>Counts an open connection; false past the limit (connections that opened at the same time).</summary>
    private bool TakeSlot(AmqpConnection connection)
    {
        var open = Interlocked.Increment(ref _connections);
        if (!_open.TryUpdate(connection, 1, 0))
        {
            Interlocked.Decrement(ref _connections); // already closed
            return true;
        }

        return open <= _options.MaxConnections;
    }

    private void CloseUnlessAuthenticatedWithin(AmqpConnection connection, TimeSpan deadline)
    {
        var timer = _time.CreateTimer(_ =>
        {
            if (!_runtime.IsAuthenticated(connection))
            {
                connection.SafeClose(new AmqpException(AmqpErrorCode.UnauthorizedAccess,
                    $"No token was put on $cbs within {deadline} of the Open (EventHubs:Amqp:AuthenticationTimeout)."));
            }
        }, null, deadline, Timeout.InfiniteTimeSpan);
        connection.Closed += (_, _) => timer.Dispose();
    }

    private Error TooManyConnections() => new()
    {
        Condition = AmqpErrorCode.ResourceLimitExceeded,
        Description = $"devhost serves at most {_options.MaxConnections} AMQP connections (EventHubs:Amqp:MaxConnections).",
    };

    /// <summary>The AMQP stack's listener side, fed by Kestrel (it opens no socket of its own).</summary>
    private sealed class HandedOverTransports() : TransportListener("devhost")
    {
        /// <summary>Starts negotiation; the stack hands the same arguments back to the accept callback once the
        /// protocol headers and SASL are done, which is how that callback finds the pipe under a SASL transport.</summary>
        public void HandOver(PipeTransport transport, System.Runtime.CompilerServices.ConditionalWeakTable<TransportAsyncCallbackArgs, PipeTransport> handedOver)
        {
            var args = new TransportAsyncCallbackArgs { Transport = transport, CompletedSynchronously = false };
            handedOver.AddOrUpdate(args, transport);
            OnTransportAccepted(args);
        }

        protected override void OnListen()
        {
        }
    }
}
