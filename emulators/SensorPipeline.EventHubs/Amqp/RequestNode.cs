using Microsoft.Azure.Amqp;
using Microsoft.Azure.Amqp.Framing;

namespace SensorPipeline.EventHubs.Amqp;

/// <summary>The request/response pattern of <c>$cbs</c> and <c>$management</c>: requests arrive on a link to the node,
/// the answer goes to the client's receiving link named by the request's reply-to, with correlation-id = message-id
/// and <c>status-code</c> (int) and <c>status-description</c> application properties.</summary>
internal abstract class RequestNode
{
    /// <summary>Requests in flight per request link (they are answered synchronously, so this is small).</summary>
    private const uint Credit = 16;

    public const string StatusCode = "status-code";
    public const string StatusDescription = "status-description";
    public const string ErrorCondition = "error-condition";

    /// <summary>Numbers the replies: requests in flight together get replies with tags of their own.</summary>
    private long _replyTag;

    public void AttachRequestLink(ReceivingAmqpLink link, ConnectionState state, int maxNestingDepth)
    {
        link.RegisterMessageListener(request => OnRequest(link, state, request, maxNestingDepth));
        link.SetTotalLinkCredit(Credit, applyNow: true, updateAutoFlow: true);
    }

    /// <summary>The answer's application properties and body; thrown exceptions become a 500.</summary>
    protected abstract AmqpMessage Answer(AmqpMessage request, ConnectionState state);

    protected static AmqpMessage Reply(int status, string description, object? body = null, string? condition = null)
    {
        var reply = body is null ? AmqpMessage.Create() : AmqpMessage.Create(new AmqpValue { Value = body });
        reply.ApplicationProperties.Map[StatusCode] = status;
        reply.ApplicationProperties.Map[StatusDescription] = description;
        if (condition is not null)
        {
            reply.ApplicationProperties.Map[ErrorCondition] = new Microsoft.Azure.Amqp.Encoding.AmqpSymbol(condition);
        }

        return reply;
    }

    protected static string? Text(AmqpMessage request, string name) =>
        (request.Sections & SectionFlag.ApplicationProperties) != 0 && request.ApplicationProperties.Map.TryGetValue(name, out object? value)
            ? value?.ToString()
            : null;

    /// <summary>Null when every section of the request decodes; else why not (a field of a type AMQP does not allow
    /// there, a decimal past System.Decimal, a map section whose size the library reads as negative: its
    /// ArgumentOutOfRangeException, found by fuzzing).</summary>
    private static string? SectionsFailure(AmqpMessage request)
    {
        try
        {
            _ = request.Sections;
            return null;
        }
        catch (Exception e) when (e is AmqpException or NotSupportedException or OverflowException or ArgumentException)
        {
            return "The request's sections are not valid AMQP: " + e.Message;
        }
    }

    private void OnRequest(ReceivingAmqpLink link, ConnectionState state, AmqpMessage request, int maxNestingDepth)
    {
        using (request)
        {
            if ((AmqpNesting.CheckReceived(request, maxNestingDepth) ?? SectionsFailure(request)) is { } undecodable)
            {
                // Refused on its bytes: reading any section would decode the whole message, recursively. Then refused
                // when its sections do not decode, before the reply-to is read (an exception here closed the link).
                link.DisposeMessage(request, new Rejected { Error = new Error { Condition = AmqpErrorCode.DecodeError, Description = undecodable } }, true, false);
                return;
            }

            var replyTo = request.Properties?.ReplyTo?.ToString();
            if (state.ReplyLink(replyTo) is not { } replyLink)
            {
                link.DisposeMessage(request, new Rejected { Error = new Error { Condition = AmqpErrorCode.NotFound, Description = $"No reply link is attached for reply-to '{replyTo}'." } }, true, false);
                return;
            }

            AmqpMessage reply;
            try
            {
                reply = Answer(request, state);
            }
            catch (Exception e) when (e is FormatException or InvalidCastException or ArgumentException)
            {
                reply = Reply(400, e.Message, condition: "com.microsoft:argument-error");
            }

            reply.Properties.CorrelationId = request.Properties!.MessageId;
            replyLink.SendMessageNoWait(reply, DeliveryTags.Next(ref _replyTag), AmqpConstants.NullBinary);
            link.AcceptMessage(request, true, false);
        }
    }
}
