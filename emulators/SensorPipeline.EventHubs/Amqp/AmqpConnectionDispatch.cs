using System.Buffers;
using System.IO.Pipelines;
using System.Net;
using System.Net.Sockets;
using System.Net.WebSockets;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;

namespace SensorPipeline.EventHubs.Amqp;

/// <summary>One port for REST and AMQP: Kestrel connection middleware that peeks at a new connection's first bytes.
/// <c>AMQP</c> (the protocol header every AMQP 1.0 client sends first, SASL or not) hands the connection to the
/// <see cref="AmqpEndpoint"/>; anything else goes on to HTTP untouched (nothing is consumed). Also the
/// <c>/$servicebus/websocket</c> route (AMQP over WebSockets), and the extra plain
/// AMQP port.</summary>
public sealed class AmqpConnectionDispatch(AmqpEndpoint endpoint, ILoggerFactory loggers)
{
    /// <summary>The path the SDKs' WebSocket transport connects to.</summary>
    public const string WebSocketPath = "/$servicebus/websocket";

    /// <summary>The subprotocols AMQP over WebSockets goes by: <c>amqp</c> (the OASIS binding, what Microsoft.Azure.Amqp
    /// asks for) and <c>AMQPWSB10</c> (its draft, what older clients ask for).</summary>
    private static readonly string[] WebSocketSubProtocols = ["amqp", "AMQPWSB10"];
    private static ReadOnlySpan<byte> ProtocolHeader => "AMQP"u8;

    private readonly ILogger _logger = loggers.CreateLogger("SensorPipeline.EventHubs.Amqp");

    /// <summary>The Kestrel connection middleware (<c>ListenOptions.Use(dispatch.Wrap)</c>).</summary>
    public ConnectionDelegate Wrap(ConnectionDelegate next)
    {
        ArgumentNullException.ThrowIfNull(next);
        return endpoint.Options.Enabled ? context => DispatchAsync(context, next) : next;
    }

    /// <summary>The extra AMQP port when configured and free at start-up, else null (a busy port is logged).</summary>
    public int? ExtraPortIfFree()
    {
        var port = endpoint.Options.ExtraPort;
        if (!endpoint.Options.Enabled || port == 0)
        {
            return null;
        }

        try
        {
            using var probe = new TcpListener(IPAddress.Loopback, port);
            probe.Start();
            probe.Stop();
            AmqpLog.ExtraPortListening(_logger, port);
            return port;
        }
        catch (SocketException)
        {
            AmqpLog.ExtraPortBusy(_logger, port);
            return null;
        }
    }

    /// <summary>GET /$servicebus/websocket: upgrades and serves AMQP over the WebSocket until either side closes.</summary>
    public async Task ServeWebSocketAsync(HttpContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        var subProtocol = context.WebSockets.WebSocketRequestedProtocols.FirstOrDefault(p => WebSocketSubProtocols.Contains(p, StringComparer.OrdinalIgnoreCase));
        if (!endpoint.Options.Enabled || !context.WebSockets.IsWebSocketRequest || subProtocol is null)
        {
            context.Response.StatusCode = StatusCodes.Status400BadRequest;
            await context.Response.WriteAsync($"AMQP over WebSockets: send a WebSocket upgrade with subprotocol {string.Join(" or ", WebSocketSubProtocols)}.", context.RequestAborted);
            return;
        }

        using var socket = await context.WebSockets.AcceptWebSocketAsync(subProtocol);
        await using var stream = WebSocketStream.Create(socket, WebSocketMessageType.Binary, ownsWebSocket: false);
        var reader = PipeReader.Create(stream);
        var writer = PipeWriter.Create(stream);
        if (endpoint.Closed)
        {
            return; // devhost is stopping: the connection is closed before its AMQP header is answered
        }

        await endpoint.ServeAsync(new PipeTransport(reader, writer, context.Connection.LocalIpAddress is { } l ? new IPEndPoint(l, context.Connection.LocalPort) : null,
            context.Connection.RemoteIpAddress is { } r ? new IPEndPoint(r, context.Connection.RemotePort) : null));
        await reader.CompleteAsync();
        await writer.CompleteAsync();
    }

    private async Task DispatchAsync(ConnectionContext context, ConnectionDelegate next)
    {
        var input = context.Transport.Input;
        bool isAmqp;
        using (var handshake = new CancellationTokenSource(endpoint.Options.HandshakeTimeout))
        {
            try
            {
                isAmqp = await StartsWithAmqpAsync(input, handshake.Token);
            }
            catch (OperationCanceledException) when (handshake.IsCancellationRequested)
            {
                return; // silent past the handshake timeout: close, holding nothing
            }
        }

        if (!isAmqp)
        {
            await next(context);
            return;
        }

        if (endpoint.Closed)
        {
            return; // devhost is stopping: the connection is closed before its AMQP header is answered
        }

        await endpoint.ServeAsync(new PipeTransport(input, context.Transport.Output, context.LocalEndPoint, context.RemoteEndPoint));
    }

    /// <summary>Reads until four bytes are there (or the peer closed) and un-reads them.</summary>
    private static async Task<bool> StartsWithAmqpAsync(PipeReader input, CancellationToken cancellationToken)
    {
        while (true)
        {
            var result = await input.ReadAsync(cancellationToken);
            var buffer = result.Buffer;
            if (buffer.Length >= ProtocolHeader.Length || result.IsCompleted)
            {
                var isAmqp = buffer.Length >= ProtocolHeader.Length && StartsWith(buffer.Slice(0, ProtocolHeader.Length));
                input.AdvanceTo(buffer.Start);
                return isAmqp;
            }

            input.AdvanceTo(buffer.Start, buffer.End);
        }
    }

    private static bool StartsWith(ReadOnlySequence<byte> first)
    {
        Span<byte> head = stackalloc byte[4];
        first.CopyTo(head);
        return head.SequenceEqual(ProtocolHeader);
    }
}
