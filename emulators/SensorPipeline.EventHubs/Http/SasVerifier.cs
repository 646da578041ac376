using System.Collections.Concurrent;
using Microsoft.Extensions.Options;
using SensorPipeline.Clients;

namespace SensorPipeline.EventHubs.Http;

/// <summary>Checks SAS tokens for REST sends and AMQP put-token alike, remembering tokens whose signature already
/// checked out: a sender reuses one token for many requests, and the HMAC and parsing would otherwise run on each.
/// Expiry, resource and rights are checked every time.</summary>
public sealed class SasVerifier(IOptions<SasOptions> options)
{
    /// <summary>Bounds memory when senders mint a fresh token per request.</summary>
    private const int MaxCachedTokens = 4096;

    private readonly ConcurrentDictionary<string, (SharedAccessSignature.VerifiedToken Token, SasRights Rights)> _verified = new(StringComparer.Ordinal);

    public SasOptions Options { get; } = options.Value;

    /// <summary>How many tokens are remembered as verified (what the tests observe: a rejected token must never count).</summary>
    internal int CachedTokens => _verified.Count;

    /// <summary>Null when allowed to send to <paramref name="resourcePath"/>; otherwise why not.</summary>
    public string? Check(string? authorization, string resourcePath, DateTimeOffset now) => Check(authorization, resourcePath, SasRights.Send, now);

    /// <summary>Null when the token is valid now, covers <paramref name="resourcePath"/> and its rule has one of
    /// <paramref name="needed"/>; otherwise why not.</summary>
    public string? Check(string? authorization, string resourcePath, SasRights needed, DateTimeOffset now) =>
        Verify(authorization, out var token, out var rights)
        ?? SharedAccessSignature.Authorize(token, resourcePath, now)
        ?? ((rights & needed) != 0 ? null : $"The rule '{SharedAccessSignature.KeyNameOf(authorization)}' has the rights {rights}, not {needed}.");

    /// <summary>Format, key name and signature (constant time); null when the token is genuine.</summary>
    public string? Verify(string? authorization, out SharedAccessSignature.VerifiedToken token, out SasRights rights)
    {
        if (authorization is not null && _verified.TryGetValue(authorization, out var known))
        {
            (token, rights) = known;
            return null;
        }

        var keyName = SharedAccessSignature.KeyNameOf(authorization);
        var (name, key, ruleRights) = Options.Rules.FirstOrDefault(r => string.Equals(r.KeyName, keyName, StringComparison.Ordinal));
        rights = ruleRights;
        if (SharedAccessSignature.Verify(authorization, name ?? Options.KeyName, key ?? Options.Key, out token) is { } invalid)
        {
            return invalid;
        }

        if (_verified.Count >= MaxCachedTokens)
        {
            _verified.Clear();
        }

        _verified[authorization!] = (token, rights);
        return null;
    }
}
