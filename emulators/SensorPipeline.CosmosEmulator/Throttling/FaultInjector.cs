
namespace SensorPipeline.CosmosEmulator.Throttling;

/// <summary>A fault the chaos run asks for: for <see cref="Seconds"/>, answer a share (<see cref="Probability"/>) of
/// requests — or only writes — with <see cref="Status"/> (429 with <see cref="RetryAfterMs"/>, 503, 403…).</summary>
/// <param name="Status">The status to answer: 403, 408, 410, 429, 449, 500 or 503.</param>
/// <param name="Seconds">How long the fault lasts, from 0.1 to 3600.</param>
/// <param name="Probability">The share of matching requests that fail, from 0 to 1. Default 1.</param>
/// <param name="WritesOnly">Only writes (create, upsert, replace, patch, delete, batch) fail.</param>
/// <param name="RetryAfterMs">For 429: the <c>x-ms-retry-after-ms</c> sent. Default 100.</param>
/// <param name="SubStatus">The <c>x-ms-substatus</c> sent (e.g. 3200 for a 429 from the RU budget). Default 0.</param>
/// <param name="DocumentContains">When set, the fault is per document, as the service fails one document of a request:
/// only writes whose document (the body of a create, upsert or replace) contains this text fail, each operation of a
/// bulk request on its own (its result carries the status; the others succeed), and 400 and 413 — one document
/// refused — are allowed too. Transactional batches are not affected.</param>
/// <param name="Container">When set, only requests addressed to this container (<c>/dbs/{db}/colls/{container}/…</c>) fail,
/// as when one container refuses everything while the others answer: one recreated with another partition-key path (400
/// with sub-status 1001 on every write), a role scoped to the other containers (403). 400 and 413 are allowed too.</param>
internal sealed record FaultRequest(int Status, double Seconds, double? Probability, bool WritesOnly, int? RetryAfterMs, int? SubStatus, string? DocumentContains = null,
    string? Container = null);

/// <summary>A container's new RU/s budget (0 = unlimited).</summary>
internal sealed record ThroughputRequest(string Database, string Container, double RequestUnitsPerSecond);

/// <summary>Holds the one active injected fault (a new one replaces it) and decides per request whether it applies.</summary>
internal sealed class FaultInjector(TimeProvider time)
{
    private static readonly int[] Allowed = [403, 408, 410, 429, 449, 500, 503];
    private static readonly int[] AllowedPerDocument = [400, 403, 408, 410, 413, 429, 449, 500, 503];
    private volatile Active? _active;

    public static string? Validate(FaultRequest request)
    {
        ArgumentNullException.ThrowIfNull(request);
        var allowed = request.DocumentContains is null && request.Container is null ? Allowed : AllowedPerDocument;
        if (Array.IndexOf(allowed, request.Status) < 0)
        {
            return $"status must be one of {string.Join(", ", allowed)}, got {request.Status}.";
        }

        if (request.DocumentContains is { Length: 0 })
        {
            return "documentContains must not be empty.";
        }

        if (request.Container is { Length: 0 })
        {
            return "container must not be empty.";
        }

        if (!(request.Seconds is >= 0.1 and <= 3600))
        {
            return $"seconds must be from 0.1 to 3600, got {request.Seconds}.";
        }

        return request.Probability is { } p && !(p is >= 0 and <= 1) ? $"probability must be from 0 to 1, got {p}." : null;
    }

    public void Inject(FaultRequest request) => _active = new Active(request, time.GetUtcNow().AddSeconds(request.Seconds));

    public void Clear() => _active = null;

    /// <summary>The fault to answer this request with, if one applies (never a per-document fault).</summary>
    /// <param name="isWrite">The request writes.</param>
    /// <param name="container">The container the request addresses, null for none.</param>
    public FaultRequest? Match(bool isWrite, string? container)
    {
        if (Current() is not { } active || active.Request.DocumentContains is not null)
        {
            return null;
        }

        if (active.Request.Container is { } only && !string.Equals(only, container, StringComparison.Ordinal))
        {
            return null;
        }

        if (active.Request.WritesOnly && !isWrite)
        {
            return null;
        }

        return Random.Shared.NextDouble() < (active.Request.Probability ?? 1) ? active.Request : null;
    }

    /// <summary>The per-document fault to answer this document write with, if one applies.</summary>
    public FaultRequest? MatchDocument(ReadOnlySpan<byte> document)
    {
        if (Current() is not { } active || active.Request.DocumentContains is not { } marker
            || document.IndexOf(System.Text.Encoding.UTF8.GetBytes(marker)) < 0)
        {
            return null;
        }

        return Random.Shared.NextDouble() < (active.Request.Probability ?? 1) ? active.Request : null;
    }

    private Active? Current()
    {
        if (_active is not { } active)
        {
            return null;
        }

        if (time.GetUtcNow() >= active.Until)
        {
            _active = null;
            return null;
        }

        return active;
    }

    private sealed record Active(FaultRequest Request, DateTimeOffset Until);
}
