using System.Collections.Concurrent;
using Microsoft.Extensions.Options;
using SensorPipeline.Clients;

namespace SensorPipeline.EventHubs.Http;

/// <summary>Checks SAS headers, remembering tokens whose signature already checked out: a sender reuses one token
/// for many requests, and the HMAC and parsing would otherwise run on each. Expiry and resource are checked every time.</summary>
public sealed class SasVerifier(IOptions<SasOptions> options)
{
    /// <summary>Bounds memory when senders mint a fresh token per request.</summary>
    private const int MaxCachedTokens = 4096;

    private readonly ConcurrentDictionary<string, SharedAccessSignature.VerifiedToken> _verified = new(StringComparer.Ordinal);

    public SasOptions Options { get; } = options.Value;

    /// <summary>How many tokens are remembered as verified (what the tests observe: a rejected token must never count).</summary>
    internal int CachedTokens => _verified.Count;

    /// <summary>Null when allowed; otherwise why not.</summary>
    public string? Check(string? authorization, string resourcePath, DateTimeOffset now)
    {
        if (authorization is null || !_verified.TryGetValue(authorization, out var token))
        {
            if (SharedAccessSignature.Verify(authorization, Options.KeyName, Options.Key, out token) is { } invalid)
            {
                return invalid;
            }

            if (_verified.Count >= MaxCachedTokens)
            {
                _verified.Clear();
            }

            _verified[authorization!] = token;
        }

        return SharedAccessSignature.Authorize(token, resourcePath, now);
    }
}
