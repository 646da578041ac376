using System.Globalization;
using System.Security.Cryptography;
using System.Text;
using System.Web;

namespace SensorPipeline.CosmosEmulator.Security;

/// <summary>
/// Checks master-key signatures as the service does ("Access control in the Azure Cosmos DB SQL API",
/// https://learn.microsoft.com/rest/api/cosmos-db/access-control-on-cosmosdb-resources): the <c>authorization</c>
/// header is the URL-encoded <c>type=master&amp;ver=1.0&amp;sig=…</c>, the signature an HMAC-SHA256 with the account key
/// over <c>verb\nresourceType\nresourceLink\nx-ms-date\ndate\n</c> (verb, type and dates lower-cased; a name-based link
/// keeps its case, a resource-id link is lower-cased; the date line is empty when <c>x-ms-date</c> is given).
/// A signature is good from its date for 15 minutes, as the service's refusal states it ("The authorization token is not
/// valid at the current time … token start time: …, token expiry time: …" — start the date, expiry 15 minutes later, as
/// quoted in Azure/azure-cosmos-dotnet-v2#506 and microsoft/vscode-cosmosdb#842); a date up to 5 minutes ahead is
/// allowed for clock skew (the service's tolerance is not documented; its messages show 6 min 46 s ahead refused).
/// </summary>
internal sealed class MasterKeyAuthorizer(byte[] key, TimeProvider clock)
{
    /// <summary>How long a signature is good after its date.</summary>
    public static readonly TimeSpan Lifetime = TimeSpan.FromMinutes(15);

    /// <summary>How far ahead of the emulator's clock a date may be.</summary>
    public static readonly TimeSpan AllowedSkew = TimeSpan.FromMinutes(5);

    /// <summary>The service's 403 message when the signed date (<c>x-ms-date</c>, else <c>Date</c>) is outside its
    /// window; null when it is inside. Call after <see cref="IsAuthorized"/>, which refuses a missing date.</summary>
    public string? DateRefusal(string? xDate, string? date)
    {
        var signed = string.IsNullOrEmpty(xDate) ? date : xDate;
        var now = clock.GetUtcNow();
        if (!DateTimeOffset.TryParse(signed, CultureInfo.InvariantCulture, DateTimeStyles.AdjustToUniversal | DateTimeStyles.AssumeUniversal, out var start))
        {
            return $"The authorization token's date '{signed}' is not an RFC 1123 date (x-ms-date: Tue, 01 Nov 1994 08:12:31 GMT).";
        }

        var expiry = start + Lifetime;
        return now >= start - AllowedSkew && now <= expiry
            ? null
            : string.Create(CultureInfo.InvariantCulture,
                $"The authorization token is not valid at the current time. Please create another token and retry (token start time: {start:r}, token expiry time: {expiry:r}, current server time: {now:r}).");
    }

    /// <summary>Whether the request's signature is the account key's for <paramref name="resourceType"/> and one of
    /// <paramref name="links"/> (the name-based link, and the resource-id form an SDK uses for some requests — the
    /// addressed resource's own <c>_rid</c>, never a bare name).</summary>
    public bool IsAuthorized(string verb, string resourceType, ReadOnlySpan<string> links, string? authorization, string? xDate, string? date)
    {
        if (string.IsNullOrEmpty(authorization) || (string.IsNullOrEmpty(xDate) && string.IsNullOrEmpty(date)))
        {
            return false;
        }

        var decoded = HttpUtility.UrlDecode(authorization);
        string? type = null, version = null, signature = null;
        foreach (var part in decoded.Split('&'))
        {
            var eq = part.IndexOf('=', StringComparison.Ordinal);
            if (eq <= 0)
            {
                return false;
            }

            var value = part[(eq + 1)..];
            switch (part[..eq])
            {
                case "type":
                    type = value;
                    break;
                case "ver":
                    version = value;
                    break;
                case "sig":
                    signature = value;
                    break;
                default:
                    break;
            }
        }

        Span<byte> presented = stackalloc byte[32];
        if (type != "master" || version != "1.0" || signature is null || !Convert.TryFromBase64String(signature, presented, out var length) || length != 32)
        {
            return false;
        }

        Span<byte> expected = stackalloc byte[32];
        foreach (var link in links)
        {
            var payload = string.Concat(verb.ToLowerInvariant(), "\n", resourceType.ToLowerInvariant(), "\n", link, "\n",
                (xDate ?? "").ToLowerInvariant(), "\n", string.IsNullOrEmpty(xDate) ? (date ?? "").ToLowerInvariant() : "", "\n");
            HMACSHA256.HashData(key, Encoding.UTF8.GetBytes(payload), expected);
            if (CryptographicOperations.FixedTimeEquals(expected, presented))
            {
                return true;
            }
        }

        return false;
    }
}
