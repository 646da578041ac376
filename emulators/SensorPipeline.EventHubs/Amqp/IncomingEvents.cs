using Microsoft.Azure.Amqp;
using Microsoft.Azure.Amqp.Framing;
using Microsoft.Extensions.Logging;

namespace SensorPipeline.EventHubs.Amqp;

/// <summary>A client's sender link to a hub or partition. Each transfer (one event or a batch) is appended as one
/// batch and settled Accepted only once the append completed — durable per the namespace's durability setting, as
/// REST answers 201. Refusals are Rejected with the condition the SDKs map, before anything is appended. The link's
/// credit (<see cref="AmqpOptions.SenderCredit"/>) bounds the transfers in flight.</summary>
internal sealed class IncomingEvents(EventHubsNamespace eventHubs, EntityAddress address, ReceivingAmqpLink link, LinkAuthorization authorization, ILogger logger)
{
    private int _maxNestingDepth;

    public void Start(uint credit, int maxNestingDepth)
    {
        _maxNestingDepth = maxNestingDepth;
        link.RegisterMessageListener(message => _ = AppendAsync(message));
        link.SetTotalLinkCredit(credit, applyNow: true, updateAutoFlow: true);
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

                var events = AmqpEventCodec.Decode(message);
                // Not cancelled when the link closes: an append handed to the partition completes anyway, and the
                // client, which saw no disposition, sends again (at least once, as after a lost REST 201).
                await eventHubs.AppendAsync(address.Hub, address.PartitionId, events, CancellationToken.None);
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

    private static Error? Refusal(Exception e) => e switch
    {
        AmqpException a when Equals(a.Error?.Condition, AmqpErrorCode.DecodeError) => a.Error,
        OverflowException => new Error { Condition = AmqpErrorCode.DecodeError, Description = $"A value does not fit its type: {e.Message}" },
        FormatException or ArgumentException => new Error { Condition = new("com.microsoft:argument-error"), Description = e.Message },
        EventTooLargeException => new Error { Condition = AmqpErrorCode.MessageSizeExceeded, Description = e.Message },
        EventHubNotFoundException or PartitionNotFoundException => new Error { Condition = AmqpErrorCode.NotFound, Description = NotFound.Text(e) },
        PartitionUnavailableException => new Error { Condition = new("com.microsoft:server-busy"), Description = e.Message },
        _ => null,
    };
}
