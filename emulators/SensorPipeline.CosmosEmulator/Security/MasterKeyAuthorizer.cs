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
/// </summary>
internal sealed class MasterKeyAuthorizer(byte[] key)
{
    /// <summary>Whether the request's signature is the account key's for <paramref name="resourceType"/> and one of
    /// <paramref name="links"/> (the name-based link, and the resource-id form an SDK uses for some requests).</summary>
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
