using Microsoft.Azure.Amqp;
using SensorPipeline.Clients;
using SensorPipeline.EventHubs.Http;

namespace SensorPipeline.EventHubs.Amqp;

/// <summary><c>$cbs</c> put-token: the request body is the token (an AMQP string), application properties
/// <c>operation=put-token</c>, <c>type</c>, <c>name</c> (the audience) and, from .NET, <c>expiration</c>. A SAS token is
/// verified as the REST API verifies its Authorization header (constant-time signature, expiry, key name → rule) and
/// must cover the audience; it then authorizes the connection's links under it, with its rule's rights. Answers
/// 202 Accepted (as Event Hubs does); 401 for a bad or foreign token, 400 for a malformed request.</summary>
internal sealed class CbsNode(SasVerifier sas, TimeProvider time) : RequestNode
{
    public const string Address = "$cbs";
    private const string SasType = "servicebus.windows.net:sastoken";

    protected override AmqpMessage Answer(AmqpMessage request, ConnectionState state)
    {
        if (Text(request, "operation") != "put-token")
        {
            return Reply(400, $"The $cbs node serves operation 'put-token' only, not '{Text(request, "operation")}'.");
        }

        var type = Text(request, "type");
        if (type == "jwt")
        {
            return Reply(401, "devhost accepts SAS tokens only (type servicebus.windows.net:sastoken): a Microsoft Entra ID token (jwt) is for Azure. Use a connection string with SharedAccessKeyName/SharedAccessKey locally.", condition: AmqpErrorCode.UnauthorizedAccess.Value);
        }

        if (type != SasType)
        {
            return Reply(400, $"Unknown token type '{type}'; devhost accepts {SasType}.");
        }

        var audience = Text(request, "name") is { Length: > 0 } name ? EntityAddress.PathOf(name) : throw new FormatException("put-token needs the audience in the 'name' application property.");
        var token = request.ValueBody?.Value as string;
        var now = time.GetUtcNow();
        if (sas.Verify(token, out var verified, out var rights) is { } invalid
            || SharedAccessSignature.Authorize(verified, audience, now) is { } denied && (invalid = denied) is not null)
        {
            return Reply(401, invalid, condition: AmqpErrorCode.UnauthorizedAccess.Value);
        }

        return state.AddToken(audience, verified, rights)
            ? Reply(202, "Accepted")
            : Reply(403, $"A connection may hold tokens for at most {ConnectionState.MaxTokens} audiences.", condition: AmqpErrorCode.ResourceLimitExceeded.Value);
    }
}
