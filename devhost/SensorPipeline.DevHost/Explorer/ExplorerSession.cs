using System.Security.Cryptography;
using System.Text;

namespace SensorPipeline.DevHost.Explorer;

/// <summary>
/// Who may use the explorer. Reads (pages, peeks, queries) need what every devhost admin surface needs: a loopback
/// <c>Host</c> (DNS rebinding) and a loopback <c>Origin</c> when one is sent (<see cref="AdminRequestGuard"/>). Actions
/// that change state (send, re-drive) need more: an <c>Origin</c>, when sent, that is devhost's own page (not another
/// loopback site on another port), and the header <see cref="TokenHeader"/> carrying this process's random token,
/// which only a page served by devhost can read (<c>GET /explorer/api/session</c> answers without CORS headers, so a
/// page of another origin cannot read it, and a custom header cross-origin needs a preflight devhost never approves).
/// </summary>
public sealed class ExplorerSession
{
    /// <summary>The header that carries the token on actions.</summary>
    public const string TokenHeader = "X-Explorer-Token";

    private readonly byte[] _token = Encoding.ASCII.GetBytes(Convert.ToHexString(RandomNumberGenerator.GetBytes(32)));

    /// <summary>The token the page sends back on actions.</summary>
    public string Token => Encoding.ASCII.GetString(_token);

    /// <summary>Why a read is refused (403), or null.</summary>
    public static string? RejectRead(HttpRequest request) => AdminRequestGuard.RejectCrossSite(request);

    /// <summary>Why an action is refused (403), or null.</summary>
    public string? RejectAction(HttpRequest request)
    {
        ArgumentNullException.ThrowIfNull(request);
        if (RejectRead(request) is { } reason)
        {
            return reason;
        }

        var origin = request.Headers.Origin.ToString();
        var own = request.Scheme + "://" + request.Host.Value;
        if (origin.Length > 0 && !string.Equals(origin, own, StringComparison.OrdinalIgnoreCase))
        {
            return $"Origin '{origin}' is not this devhost's page ({own}): actions are accepted only from the explorer itself.";
        }

        var sent = request.Headers[TokenHeader].ToString();
        return sent.Length == _token.Length && CryptographicOperations.FixedTimeEquals(Encoding.ASCII.GetBytes(sent), _token)
            ? null
            : $"Send the header '{TokenHeader}' with the token of GET /explorer/api/session (the explorer page does).";
    }
}
