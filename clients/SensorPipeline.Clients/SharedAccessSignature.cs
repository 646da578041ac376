using System.Globalization;
using System.Security.Cryptography;
using System.Text;

namespace SensorPipeline.Clients;

/// <summary>Builds and verifies <c>SharedAccessSignature sr=…&amp;sig=…&amp;se=…&amp;skn=…</c> as Event Hubs does:
/// <c>sig = base64(HMAC-SHA256(key, sr + "\n" + se))</c> over <c>sr</c> exactly as sent (URL-encoded), expiry
/// <c>se</c> (Unix seconds) in the future, <c>skn</c> the configured key name, and <c>sr</c> covering the resource.</summary>
/// <remarks><c>sr</c> is matched without its scheme (<c>sb://</c>, <c>http://</c>, <c>https://</c>, <c>amqps://</c>),
/// case-insensitively, after URL-decoding. Its host is NOT compared: senders sign with the namespace host name
/// (<c>ns.servicebus.windows.net</c>, <c>localhost</c>, <c>127.0.0.1:PORT</c>) and devhost has only one namespace, so the
/// path decides. A token for the namespace (empty path) covers every hub; a token for <c>hub</c> covers all of that
/// hub's send paths; a token for <c>hub/publishers/p</c> covers only that publisher.</remarks>
public static class SharedAccessSignature
{
    private static readonly string[] Schemes = ["sb://", "http://", "https://", "amqps://", "amqp://"];

    /// <summary>Null when the token is valid for <paramref name="resourcePath"/> (e.g. <c>hub/messages</c>); otherwise why not.</summary>
    public static string? Check(string? authorization, string resourcePath, string keyName, string key, DateTimeOffset now) =>
        Verify(authorization, keyName, key, out var token) ?? Authorize(token, resourcePath, now);

    /// <summary>A token whose format, key name and signature checked out (expiry and resource not yet).</summary>
    /// <param name="Resource">The URL-decoded <c>sr</c>.</param>
    /// <param name="Expiry">The <c>se</c>, Unix seconds.</param>
    public readonly record struct VerifiedToken(string Resource, long Expiry);

    /// <summary>The URL-decoded <c>skn</c> of a token, or null when it has none (the verifier picks the rule by it).</summary>
    public static string? KeyNameOf(string? authorization)
    {
        if (authorization is null)
        {
            return null;
        }

        foreach (var part in authorization.Split(' ', 2)[^1].Split('&'))
        {
            var eq = part.IndexOf('=', StringComparison.Ordinal);
            if (eq > 0 && part.AsSpan(0, eq).Trim().Equals("skn", StringComparison.OrdinalIgnoreCase))
            {
                return Uri.UnescapeDataString(part[(eq + 1)..]);
            }
        }

        return null;
    }

    /// <summary>The costly part (parsing, HMAC); the result depends only on the header and the key, so it can be cached.</summary>
    public static string? Verify(string? authorization, string keyName, string key, out VerifiedToken token)
    {
        ArgumentNullException.ThrowIfNull(keyName);
        ArgumentNullException.ThrowIfNull(key);
        token = default;
        const string Prefix = "SharedAccessSignature ";
        if (string.IsNullOrEmpty(authorization))
        {
            return "The Authorization header is missing; send 'SharedAccessSignature sr=…&sig=…&se=…&skn=…'.";
        }

        if (!authorization.StartsWith(Prefix, StringComparison.OrdinalIgnoreCase))
        {
            return "The Authorization header is not a SharedAccessSignature token.";
        }

        string? sr = null, sig = null, se = null, skn = null;
        foreach (var part in authorization.AsSpan(Prefix.Length).Trim().ToString().Split('&'))
        {
            var eq = part.IndexOf('=', StringComparison.Ordinal);
            if (eq <= 0)
            {
                return $"The token has a malformed field '{part}'.";
            }

            var value = part[(eq + 1)..];
            switch (part[..eq].Trim().ToLowerInvariant())
            {
                case "sr": sr = value; break;
                case "sig": sig = value; break;
                case "se": se = value; break;
                case "skn": skn = value; break;
                default: break;
            }
        }

        if (sr is null || sig is null || se is null || skn is null)
        {
            return "The token must carry sr, sig, se and skn.";
        }

        if (!long.TryParse(se, NumberStyles.None, CultureInfo.InvariantCulture, out var expiry))
        {
            return $"The token's expiry se='{se}' is not a Unix time in seconds.";
        }

        if (!string.Equals(Uri.UnescapeDataString(skn), keyName, StringComparison.Ordinal))
        {
            return $"The token's key name skn='{skn}' is not the configured key name.";
        }

        if (!SignatureMatches(sr, se, Uri.UnescapeDataString(sig), key))
        {
            return "The token's signature does not match the configured key.";
        }

        token = new VerifiedToken(Uri.UnescapeDataString(sr), expiry);
        return null;
    }

    /// <summary>The cheap part, checked on every request: not expired, and <c>sr</c> covers the resource.</summary>
    public static string? Authorize(VerifiedToken token, string resourcePath, DateTimeOffset now)
    {
        ArgumentNullException.ThrowIfNull(resourcePath);
        if (token.Expiry <= now.ToUnixTimeSeconds())
        {
            return $"The token expired at {DateTimeOffset.FromUnixTimeSeconds(Math.Min(token.Expiry, 253402300799)):O}.";
        }

        return Covers(token.Resource, resourcePath)
            ? null
            : $"The token's resource sr='{token.Resource}' does not cover '{resourcePath}'.";
    }

    /// <summary>Creates a token the way Event Hubs clients do: <c>sr</c> is the URL-encoded
    /// <paramref name="resourceUri"/>, signed with the UTF-8 bytes of <paramref name="key"/>.</summary>
    public static string Create(string resourceUri, string keyName, string key, DateTimeOffset expiry)
    {
        ArgumentNullException.ThrowIfNull(resourceUri);
        ArgumentNullException.ThrowIfNull(keyName);
        ArgumentNullException.ThrowIfNull(key);
        var encoded = Uri.EscapeDataString(resourceUri);
        var se = expiry.ToUnixTimeSeconds().ToString(CultureInfo.InvariantCulture);
        var sig = Convert.ToBase64String(HMACSHA256.HashData(Encoding.UTF8.GetBytes(key), Encoding.UTF8.GetBytes(encoded + "\n" + se)));
        return $"SharedAccessSignature sr={encoded}&sig={Uri.EscapeDataString(sig)}&se={se}&skn={Uri.EscapeDataString(keyName)}";
    }

    private static bool SignatureMatches(string srAsSent, string se, string signature, string key)
    {
        Span<byte> expected = stackalloc byte[32];
        HMACSHA256.HashData(Encoding.UTF8.GetBytes(key), Encoding.UTF8.GetBytes(srAsSent + "\n" + se), expected);
        Span<byte> given = stackalloc byte[64];
        return Convert.TryFromBase64String(signature, given, out var length)
            && length == 32
            && CryptographicOperations.FixedTimeEquals(expected, given[..32]);
    }

    private static bool Covers(string sr, string resourcePath)
    {
        var rest = sr.AsSpan().Trim();
        foreach (var scheme in Schemes)
        {
            if (rest.StartsWith(scheme, StringComparison.OrdinalIgnoreCase))
            {
                rest = rest[scheme.Length..];
                break;
            }
        }

        var slash = rest.IndexOf('/');
        var tokenPath = slash < 0 ? [] : rest[(slash + 1)..].Trim('/');
        var requested = resourcePath.AsSpan().Trim('/');
        return tokenPath.IsEmpty
            || requested.Equals(tokenPath, StringComparison.OrdinalIgnoreCase)
            || (requested.StartsWith(tokenPath, StringComparison.OrdinalIgnoreCase) && requested[tokenPath.Length] == '/');
    }
}
