using System.Runtime.CompilerServices;
using Microsoft.Azure.Amqp;
using Microsoft.Azure.Amqp.Framing;
using Microsoft.Azure.Amqp.Transport;
using Microsoft.Extensions.Logging;
using SensorPipeline.EventHubs.Http;

namespace SensorPipeline.EventHubs.Amqp;

/// <summary>Microsoft.Azure.Amqp's link factory for the namespace: sessions get the configured handle-max, and each
/// attach is routed by address to <c>$cbs</c>, <c>$management</c>, a sender (hub or partition) or a receiver
/// (consumer group partition), authorized by the connection's put-token tokens. A refused attach is answered with a
/// detach carrying the error (not-found, unauthorized-access, link:stolen, …), which the SDKs turn into exceptions.</summary>
internal sealed class AmqpRuntime(EventHubsNamespace eventHubs, SasVerifier sas, AmqpOptions options, TimeProvider time, ILogger logger) : IRuntimeProvider
{
    private const string IdempotentProducer = "com.microsoft:idempotent-producer";
    private const string EpochProperty = "com.microsoft:epoch";
    private readonly ConditionalWeakTable<AmqpConnection, ConnectionState> _connections = [];
    private readonly ConditionalWeakTable<AmqpConnection, LinkRefusals> _refusals = [];
    private readonly CbsNode _cbs = new(sas, time);
    private readonly ManagementNode _management = new(eventHubs, sas, time);
    private readonly OwnerLevels _owners = new();

    /// <summary>Starts a connection's state, with the pipe under it (null when the stack's arguments did not lead back
    /// to one), which its receivers wait on when the peer stops reading.</summary>
    public void Register(AmqpConnection connection, PipeTransport? transport) =>
        _connections.AddOrUpdate(connection, new ConnectionState { Transport = transport });

    /// <summary>Receivers registered for owner levels, open or not yet closed.</summary>
    internal int Receivers => _owners.Receivers;

    /// <summary>Whether a put-token was accepted on the connection.</summary>
    public bool IsAuthenticated(AmqpConnection connection) =>
        _connections.TryGetValue(connection, out var state) && state.IsAuthenticated;

    /// <summary>A connection whose frames the namespace's counters see (the stack reports each one to its usage meter).</summary>
    public AmqpConnection CreateConnection(TransportBase transport, ProtocolHeader protocolHeader, bool isInitiator, AmqpSettings amqpSettings, AmqpConnectionSettings connectionSettings) =>
        new DecodeErrorConnection(transport, protocolHeader, isInitiator, amqpSettings, connectionSettings) { SessionFactory = this, UsageMeter = eventHubs.Counters };

    public AmqpSession CreateSession(AmqpConnection connection, AmqpSessionSettings settings)
    {
        settings.HandleMax = Math.Min(settings.HandleMax ?? uint.MaxValue, (uint)options.MaxLinksPerSession - 1);
        return new DecodeErrorSession(connection, settings, this);
    }

    public AmqpLink CreateLink(AmqpSession session, AmqpLinkSettings settings)
    {
        if (settings.Role == true)
        {
            // The client sends: announce the largest message (the SDKs size their batches by it); requests are small.
            var node = (settings.Target as Target)?.Address?.ToString() is CbsNode.Address or ManagementNode.Address;
            settings.MaxMessageSize = (ulong)(node ? options.MaxRequestSize : EventLogOptions.MaxEventSizeBytes);
            return new ReceivingAmqpLink(session, settings);
        }

        return new SendingAmqpLink(session, settings);
    }

    public IAsyncResult BeginOpenLink(AmqpLink link, TimeSpan timeout, AsyncCallback callback, object state)
    {
        var completion = new TaskCompletionSource(state);
        _ = OpenAsync(link, completion, callback);
        return completion.Task;
    }

    public void EndOpenLink(IAsyncResult result) => ((Task)result).GetAwaiter().GetResult();

    private async Task OpenAsync(AmqpLink link, TaskCompletionSource completion, AsyncCallback callback)
    {
        try
        {
            await OpenLinkAsync(link);
            completion.TrySetResult();
        }
        catch (Exception e)
        {
            if (logger.IsEnabled(LogLevel.Information))
            {
                var address = (link.IsReceiver ? (link.Settings.Target as Target)?.Address : (link.Settings.Source as Source)?.Address)?.ToString();
                Refusals(link.Session.Connection).Refused(link.Name, address, e.Message);
            }

            completion.TrySetException(e is AmqpException ? e : new AmqpException(AmqpErrorCode.InternalError, e.Message));
        }

        callback(completion.Task);
    }

    /// <summary>The connection's refused attaches, summarized when it closes.</summary>
    private LinkRefusals Refusals(AmqpConnection connection) => _refusals.GetValue(connection, c =>
    {
        var refusals = new LinkRefusals(c.RemoteEndpoint, time, logger);
        c.Closed += (_, _) => refusals.Closed();
        return refusals;
    });

    private async Task OpenLinkAsync(AmqpLink link)
    {
        var state = _connections.GetValue(link.Session.Connection, _ => new ConnectionState());
        if (link is ReceivingAmqpLink receiver)
        {
            OpenClientSender(receiver, state);
            return;
        }

        var sender = (SendingAmqpLink)link;
        var address = (sender.Settings.Source as Source)?.Address?.ToString();
        if (address is CbsNode.Address or ManagementNode.Address)
        {
            state.AddReplyLink(sender);
            return;
        }

        await OpenClientReceiverAsync(sender, address, state);
    }

    private void OpenClientSender(ReceivingAmqpLink link, ConnectionState state)
    {
        var address = (link.Settings.Target as Target)?.Address?.ToString();
        switch (address)
        {
            case CbsNode.Address:
                _cbs.AttachRequestLink(link, state, options.MaxNestingDepth);
                return;
            case ManagementNode.Address:
                _management.AttachRequestLink(link, state, options.MaxNestingDepth);
                return;
        }

        if (link.Settings.DesiredCapabilities?.Contains(new Microsoft.Azure.Amqp.Encoding.AmqpSymbol(IdempotentProducer)) == true)
        {
            throw new AmqpException(AmqpErrorCode.NotImplemented, "devhost does not serve idempotent publishing (EnableIdempotentPartitions); send without it.");
        }

        var entity = EntityAddress.Parse(address);
        if (entity is null || entity.ConsumerGroup is not null)
        {
            throw NotFound.Exception(address ?? "(no address)");
        }

        Resolve(entity);
        Authorize(state, entity, SasRights.Send);
        new IncomingEvents(eventHubs, entity, link, new LinkAuthorization(state, entity.Path, SasRights.Send, time), logger).Start((uint)options.SenderCredit, options.MaxNestingDepth);
    }

    private async Task OpenClientReceiverAsync(SendingAmqpLink link, string? address, ConnectionState state)
    {
        var entity = EntityAddress.Parse(address);
        if (entity?.ConsumerGroup is null)
        {
            throw NotFound.Exception(address ?? "(no address)");
        }

        Resolve(entity);
        Authorize(state, entity, SasRights.Listen);
        EventFilter.Position position;
        try
        {
            position = EventFilter.Parse(link.Settings.Source as Source);
        }
        catch (FormatException e)
        {
            throw new AmqpException(new Error { Condition = new("com.microsoft:argument-error"), Description = e.Message });
        }

        var from = await OutgoingEvents.StartOfAsync(eventHubs, entity, position, CancellationToken.None);
        var level = link.Settings.Properties?.TryGetValue<long>(EpochProperty, out var epoch) == true ? epoch : (long?)null;
        _owners.Join($"{entity.Hub}/{entity.ConsumerGroup}/{entity.PartitionId}", link, level);
        new OutgoingEvents(eventHubs, entity, link, new LinkAuthorization(state, entity.Path, SasRights.Listen, time), options.MaxReceiverBatch, time, logger, state.Transport, options.MaxQueuedBytesPerLink).Start(from);
    }

    /// <summary>Unknown hub or consumer group: amqp:not-found with the SDKs' text; unknown partition: argument-out-of-range.</summary>
    private void Resolve(EntityAddress entity)
    {
        try
        {
            var hub = eventHubs.GetHubDescription(entity.Hub);
            if (entity.PartitionId is not null)
            {
                eventHubs.GetPartitionProperties(entity.Hub, entity.PartitionId);
            }

            if (entity.ConsumerGroup is not null && !hub.ConsumerGroups.Contains(entity.ConsumerGroup, StringComparer.OrdinalIgnoreCase))
            {
                throw NotFound.Exception($"{entity.Hub}/ConsumerGroups/{entity.ConsumerGroup}");
            }
        }
        catch (EventHubNotFoundException e)
        {
            throw NotFound.Exception(e);
        }
        catch (PartitionNotFoundException e)
        {
            throw UnknownPartition.Exception(e);
        }
    }

    private void Authorize(ConnectionState state, EntityAddress entity, SasRights needed)
    {
        if (state.Authorize(entity.Path, needed, time.GetUtcNow()) is { } denied)
        {
            throw new AmqpException(AmqpErrorCode.UnauthorizedAccess, $"Unauthorized access to '{entity.Path}': {denied}");
        }
    }
}
