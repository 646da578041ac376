using Microsoft.Azure.Amqp;
using Microsoft.Azure.Amqp.Framing;
using Microsoft.Extensions.Logging;

namespace SensorPipeline.EventHubs.Amqp;

/// <summary>A client's sender link to a hub or partition. Each transfer (one event or a batch) is appended as one
/// batch and settled Accepted only once the append completed — durable per the namespace's durability setting, as
/// REST answers 201. Refusals are Rejected with the condition the SDKs map, before anything is appended. The link's
/// credit (<see cref="AmqpOptions.SenderCredit"/>) bounds the transfers in flight.</summary>
/// <remarks>Size is judged as Event Hubs judges it: the transfer's bytes against the max-message-size the attach
/// announced (the limit the SDKs fill their batches to), and a transfer past it is Rejected
/// <c>amqp:link:message-size-exceeded</c> while the link stays open.</remarks>
internal sealed class IncomingEvents(EventHubsNamespace eventHubs, EntityAddress address, ReceivingAmqpLink link, LinkAuthorization authorization, ILogger logger)
{
    /// <summary>What the stack itself lets a transfer grow to before it closes the link: twice the announced limit, so
    /// a transfer a little past the limit (the SDKs' own mistakes) reaches <see cref="AppendAsync"/> and is rejected
    /// alone, and a client far past it still holds no more than this per link.</summary>
    public const ulong TransferBound = 2UL * EventLogOptions.MaxEventSizeBytes;

    private int _maxNestingDepth;

    public void Start(uint credit, int maxNestingDepth)
    {
        _maxNestingDepth = maxNestingDepth;
        link.RegisterMessageListener(message => _ = AppendAsync(message));
        // The attach has announced the limit when the link opens; only then does the stack get the wider bound, and
        // the client its credit, so no transfer is judged by the stack against the limit (it would close the link).
        link.Opened += (_, _) =>
        {
            link.Settings.MaxMessageSize = TransferBound;
            link.SetTotalLinkCredit(credit, applyNow: true, updateAutoFlow: true);
        };
    }

    private async Task AppendAsync(AmqpMessage message)
    {
        using (message)
        {
            if (!authorization.IsValid())
            {
                // Event Hubs closes a link whose token expired without a refresh; the SDKs refresh before expiry.
                link.SafeClose(new AmqpException(AmqpErrorCode.UnauthorizedAccess, $"The token for '{address.Path}' expired and was not renewed on $cbs."));
                return;
            }

            DeliveryState outcome;
            try
            {
                if (AmqpNesting.CheckReceived(message, _maxNestingDepth) is { } undecodable)
                {
                    throw new AmqpException(AmqpErrorCode.DecodeError, undecodable);
                }

                var events = AmqpEventCodec.Decode(TransferWithinLimit(message));
                // Not cancelled when the link closes: an append handed to the partition completes anyway, and the
                // client, which saw no disposition, sends again (at least once, as after a lost REST 201).
                await eventHubs.AppendTransferAsync(address.Hub, address.PartitionId, events, CancellationToken.None);
                eventHubs.Counters.AppendedOverAmqp(events.Count);
                outcome = AmqpConstants.AcceptedOutcome;
            }
            catch (Exception e) when (Refusal(e) is { } error)
            {
                AmqpLog.SendRefused(logger, address.Path, error.Condition.Value, e.Message);
                outcome = new Rejected { Error = error };
            }

            if (link.State == AmqpObjectState.Opened)
            {
                link.DisposeMessage(message, outcome, settled: true, batchable: message.Batchable);
            }
        }
    }

    /// <summary>The message, when its transfer is within the limit the link announced; else the service's refusal.</summary>
    private static AmqpMessage TransferWithinLimit(AmqpMessage message) =>
        message.BytesTransfered <= EventLogOptions.MaxEventSizeBytes
            ? message
            : throw new EventTooLargeException(string.Create(System.Globalization.CultureInfo.InvariantCulture,
                $"The received message (delivery-id:{message.DeliveryId}, size:{message.BytesTransfered} bytes) exceeds the limit ({EventLogOptions.MaxEventSizeBytes} bytes) currently allowed on the link."));

    private static Error? Refusal(Exception e) => e switch
    {
        AmqpException a when Equals(a.Error?.Condition, AmqpErrorCode.DecodeError) => a.Error,
        OverflowException => new Error { Condition = AmqpErrorCode.DecodeError, Description = $"A value does not fit its type: {e.Message}" },
        FormatException or ArgumentException => new Error { Condition = new("com.microsoft:argument-error"), Description = e.Message },
        EventTooLargeException => new Error { Condition = AmqpErrorCode.MessageSizeExceeded, Description = e.Message },
        EventHubNotFoundException h => new Error { Condition = AmqpErrorCode.NotFound, Description = NotFound.Text(h) },
        PartitionNotFoundException p => UnknownPartition.Error(p),
        PartitionUnavailableException => new Error { Condition = new("com.microsoft:server-busy"), Description = e.Message },
        _ => null,
    };
}
