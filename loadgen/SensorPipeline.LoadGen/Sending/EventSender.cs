using System.Net;
using System.Net.Http.Headers;
using Microsoft.Extensions.Logging;

namespace SensorPipeline.LoadGen.Sending;

/// <summary>
/// Sends single events through the Event Hubs REST API (<c>POST {base}/{hub}/messages</c>, raw body,
/// <c>application/octet-stream</c>) over one pooled HttpClient, so connections are reused ("Event Hubs ingestion
/// performance and throughput", https://vincentlauzon.com/2018/06/05/event-hubs-ingestion-performance-and-throughput/:
/// a new connection per event is an order of magnitude slower). Retries only what can pass on a second try —
/// connection failures, timeouts, 408, 429 and 5xx — with capped exponential backoff and jitter.
/// </summary>
internal sealed class EventSender : IEventSender
{
    private static readonly MediaTypeHeaderValue OctetStream = new("application/octet-stream");

    private readonly HttpClient _client;
    private readonly Uri _messagesUri;
    private readonly IAuthorizationSource _authorization;
    private readonly SenderSettings _settings;
    private readonly TimeProvider _time;
    private readonly ILogger _logger;

    public EventSender(Uri messagesUri, IAuthorizationSource authorization, SenderSettings settings, TimeProvider time, ILogger logger)
    {
        _messagesUri = messagesUri ?? throw new ArgumentNullException(nameof(messagesUri));
        _authorization = authorization ?? throw new ArgumentNullException(nameof(authorization));
        _settings = settings ?? throw new ArgumentNullException(nameof(settings));
        _time = time ?? throw new ArgumentNullException(nameof(time));
        _logger = logger ?? throw new ArgumentNullException(nameof(logger));
        var handler = new SocketsHttpHandler
        {
            // One connection per concurrent send (HTTP/1.1 has no multiplexing); recycled now and then so DNS
            // changes in Azure are picked up on a long run.
            MaxConnectionsPerServer = settings.Concurrency,
            PooledConnectionLifetime = TimeSpan.FromMinutes(5),
            PooledConnectionIdleTimeout = TimeSpan.FromMinutes(1),
            AutomaticDecompression = DecompressionMethods.None,
            UseCookies = false,
        };
        _client = new HttpClient(handler) { Timeout = settings.AttemptTimeout };
    }

    /// <summary>The full URL events are posted to.</summary>
    public Uri MessagesUri => _messagesUri;

    public Uri Target => _messagesUri;

    /// <summary>Builds <c>{baseAddress}/{hub}/messages</c>.</summary>
    public static Uri MessagesUriFor(Uri baseAddress, string hub)
    {
        ArgumentNullException.ThrowIfNull(baseAddress);
        return new Uri(baseAddress.GetLeftPart(UriPartial.Authority) + "/" + Uri.EscapeDataString(hub) + "/messages");
    }

    /// <summary>Sends one event; never throws for an HTTP or network failure (the outcome says), only on cancellation.</summary>
    public async Task<SendOutcome> SendAsync(ReadOnlyMemory<byte> body, CancellationToken cancellationToken)
    {
        var started = _time.GetTimestamp();
        for (var attempt = 1; ; attempt++)
        {
            int statusCode;
            string? detail;
            TimeSpan? retryAfter = null;
            try
            {
                using var request = new HttpRequestMessage(HttpMethod.Post, _messagesUri);
                request.Headers.TryAddWithoutValidation("Authorization", await _authorization.GetAsync(cancellationToken));
                request.Content = new ReadOnlyMemoryContent(body);
                request.Content.Headers.ContentType = OctetStream;
                using var response = await _client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, cancellationToken);
                statusCode = (int)response.StatusCode;
                if (response.StatusCode == HttpStatusCode.Created)
                {
                    return new SendOutcome(SendStatus.Sent, attempt, statusCode, _time.GetElapsedTime(started), null);
                }

                detail = await ReadDetailAsync(response, cancellationToken);
                if (!IsTransient(response.StatusCode))
                {
                    // Permanent: the caller reports and counts it; the event is never counted as sent.
                    return new SendOutcome(SendStatus.Rejected, attempt, statusCode, _time.GetElapsedTime(started), detail);
                }

                retryAfter = response.Headers.RetryAfter?.Delta;
            }
            catch (HttpRequestException e)
            {
                statusCode = 0;
                detail = e.Message;
            }
            catch (TaskCanceledException e) when (!cancellationToken.IsCancellationRequested)
            {
                // HttpClient.Timeout fired for this attempt (the run itself was not cancelled): transient.
                statusCode = 0;
                detail = "timed out after " + _settings.AttemptTimeout.TotalSeconds + " s: " + e.Message;
            }

            if (attempt >= _settings.MaxAttempts)
            {
                return new SendOutcome(SendStatus.GaveUp, attempt, statusCode, _time.GetElapsedTime(started), detail);
            }

            var delay = Backoff(attempt, retryAfter);
            LoadGenLog.SendRetrying(_logger, attempt, statusCode, delay.TotalMilliseconds, detail);
            await Task.Delay(delay, _time, cancellationToken);
        }
    }

    /// <summary>
    /// One attempt with a request the hub must refuse (a chaos run's malformed sends): never retried, the status says how
    /// the hub answered (0: no answer). <paramref name="authorize"/> false sends a forged signature instead of a token.
    /// </summary>
    public async Task<int> ProbeAsync(HttpContent content, bool authorize, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(content);
        using var request = new HttpRequestMessage(HttpMethod.Post, _messagesUri) { Content = content };
        var token = await _authorization.GetAsync(cancellationToken);
        request.Headers.TryAddWithoutValidation("Authorization", authorize ? token : ForgeSignature(token));
        try
        {
            using var response = await _client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, cancellationToken);
            return (int)response.StatusCode;
        }
        catch (HttpRequestException)
        {
            return 0;
        }
    }

    // The same token with its signature replaced: well-formed, wrong key.
    private static string ForgeSignature(string token)
    {
        var at = token.IndexOf("sig=", StringComparison.Ordinal);
        if (at < 0)
        {
            return "SharedAccessSignature sr=x&sig=forged&se=1&skn=forged";
        }

        var end = token.IndexOf('&', at);
        return token[..(at + 4)] + "Zm9yZ2VkLXNpZ25hdHVyZQ%3D%3D" + (end < 0 ? "" : token[end..]);
    }

    /// <summary>408, 429 and 5xx can succeed later; every other non-201 answer is the request's fault.</summary>
    public static bool IsTransient(HttpStatusCode status) =>
        status is HttpStatusCode.RequestTimeout or HttpStatusCode.TooManyRequests || (int)status >= 500;

    /// <summary>Capped exponential backoff with jitter in [½, 1] of the step; a Retry-After wins when longer (still capped).</summary>
    public TimeSpan Backoff(int attempt, TimeSpan? retryAfter)
    {
        var step = _settings.BaseBackoff.TotalMilliseconds * Math.Pow(2, Math.Min(attempt - 1, 20));
        var capped = Math.Min(step, _settings.MaxBackoff.TotalMilliseconds);
        var delay = TimeSpan.FromMilliseconds(capped * (0.5 + (Random.Shared.NextDouble() / 2)));
        if (retryAfter is { } asked && asked > delay)
        {
            delay = asked < _settings.MaxBackoff ? asked : _settings.MaxBackoff;
        }

        return delay;
    }

    public void Dispose() => _client.Dispose();

    private static async Task<string> ReadDetailAsync(HttpResponseMessage response, CancellationToken cancellationToken)
    {
        var text = await response.Content.ReadAsStringAsync(cancellationToken);
        var reason = $"{(int)response.StatusCode} {response.ReasonPhrase}";
        return text.Length == 0 ? reason : reason + ": " + (text.Length > 300 ? text[..300] + "…" : text);
    }
}
