using Microsoft.Azure.Amqp;
using SensorPipeline.Clients;
using SensorPipeline.EventHubs.Http;

namespace SensorPipeline.EventHubs.Amqp;

/// <summary>What one AMQP connection has proven with put-token (the tokens its links are authorized by), and where
/// its $cbs and $management replies go.</summary>
internal sealed class ConnectionState
{
    /// <summary>A client refreshes a token per audience; more distinct audiences than this on one connection is abuse.</summary>
    public const int MaxTokens = 1024;

    private readonly Lock _lock = new();
    private readonly Dictionary<string, (SharedAccessSignature.VerifiedToken Token, SasRights Rights)> _tokens = new(StringComparer.OrdinalIgnoreCase);
    private readonly Dictionary<string, SendingAmqpLink> _replyLinks = new(StringComparer.Ordinal);
    private volatile bool _authenticated;

    /// <summary>The pipe the connection runs on, when known: its receivers wait while it is backed up.</summary>
    public PipeTransport? Transport { get; init; }

    /// <summary>Whether a token was ever accepted (the connection authenticated in time).</summary>
    public bool IsAuthenticated => _authenticated;

    /// <summary>Remembers a verified token for its audience (replacing an older one for the same audience).</summary>
    public bool AddToken(string audience, SharedAccessSignature.VerifiedToken token, SasRights rights)
    {
        lock (_lock)
        {
            if (_tokens.Count >= MaxTokens && !_tokens.ContainsKey(audience))
            {
                return false;
            }

            _tokens[audience] = (token, rights);
            _authenticated = true;
            return true;
        }
    }

    /// <summary>Null when some unexpired token of this connection covers <paramref name="path"/> with <paramref name="needed"/>.</summary>
    public string? Authorize(string path, SasRights needed, DateTimeOffset now)
    {
        string? why = null;
        lock (_lock)
        {
            foreach (var (token, rights) in _tokens.Values)
            {
                why = SharedAccessSignature.Authorize(token, path, now) ?? ((rights & needed) != 0 ? null : $"The token's rule has the rights {rights}, not {needed}.");
                if (why is null)
                {
                    return null;
                }
            }
        }

        return why ?? $"No token was put on $cbs for '{path}'; put one with the {needed} right before attaching.";
    }

    /// <summary>Until when the connection's tokens authorize <paramref name="path"/> with <paramref name="needed"/>: the
    /// latest expiry among the tokens that do (a client refreshes its token before it expires), null when none does.</summary>
    public DateTimeOffset? AuthorizedUntil(string path, SasRights needed, DateTimeOffset now)
    {
        DateTimeOffset? until = null;
        lock (_lock)
        {
            foreach (var (token, rights) in _tokens.Values)
            {
                if ((rights & needed) != 0 && SharedAccessSignature.Authorize(token, path, now) is null)
                {
                    var expiry = DateTimeOffset.FromUnixTimeSeconds(Math.Min(token.Expiry, 253402300799));
                    until = until is { } u && u > expiry ? u : expiry;
                }
            }
        }

        return until;
    }

    /// <summary>A $cbs/$management reply link, found by its target address and by its name (the Node client's CBS
    /// receiver has no target and uses the link name as reply-to).</summary>
    public void AddReplyLink(SendingAmqpLink link)
    {
        lock (_lock)
        {
            foreach (var key in ReplyKeys(link))
            {
                _replyLinks[key] = link;
            }
        }

        link.Closed += (_, _) =>
        {
            lock (_lock)
            {
                foreach (var key in ReplyKeys(link))
                {
                    if (_replyLinks.TryGetValue(key, out var current) && ReferenceEquals(current, link))
                    {
                        _replyLinks.Remove(key);
                    }
                }
            }
        };
    }

    /// <summary>The open reply link for <paramref name="replyTo"/>; a closing one (its session ending) is none, as it
    /// can carry no reply.</summary>
    public SendingAmqpLink? ReplyLink(string? replyTo)
    {
        lock (_lock)
        {
            return replyTo is not null && _replyLinks.TryGetValue(replyTo, out var link) && !link.IsClosing() ? link : null;
        }
    }

    private static IEnumerable<string> ReplyKeys(SendingAmqpLink link)
    {
        if ((link.Settings.Target as Microsoft.Azure.Amqp.Framing.Target)?.Address?.ToString() is { Length: > 0 } address)
        {
            yield return address;
        }

        yield return link.Name;
    }
}
