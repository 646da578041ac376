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
        var (status, description, condition) = PutToken(Text(request, "operation"), Text(request, "type"), Text(request, "name"), request.ValueBody?.Value as string, state);
        return Reply(status, description, condition: condition);
    }

    /// <summary>The put-token decision: status, description and error condition (null on success).</summary>
    internal (int Status, string Description, string? Condition) PutToken(string? operation, string? type, string? name, string? token, ConnectionState state)
    {
        if (operation != "put-token")
        {
            return (400, $"The $cbs node serves operation 'put-token' only, not '{operation}'.", "com.microsoft:argument-error");
        }

        if (type == "jwt")
        {
            return (401, "devhost accepts SAS tokens only (type servicebus.windows.net:sastoken): a Microsoft Entra ID token (jwt) is for Azure. Use a connection string with SharedAccessKeyName/SharedAccessKey locally.", AmqpErrorCode.UnauthorizedAccess.Value);
        }

        if (type != SasType)
        {
            return (400, $"Unknown token type '{type}'; devhost accepts {SasType}.", "com.microsoft:argument-error");
        }

        if (name is not { Length: > 0 })
        {
            return (400, "put-token needs the audience in the 'name' application property.", "com.microsoft:argument-error");
        }

        var audience = EntityAddress.PathOf(name);
        var now = time.GetUtcNow();
        if ((sas.Verify(token, out var verified, out var rights) ?? SharedAccessSignature.Authorize(verified, audience, now)) is { } denied)
        {
            return (401, denied, AmqpErrorCode.UnauthorizedAccess.Value);
        }

        return state.AddToken(audience, verified, rights)
            ? (202, "Accepted", null)
            : (403, $"A connection may hold tokens for at most {ConnectionState.MaxTokens} audiences.", AmqpErrorCode.ResourceLimitExceeded.Value);
    }
}
