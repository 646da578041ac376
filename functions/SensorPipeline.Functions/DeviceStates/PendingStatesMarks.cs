using System.Globalization;
using System.Net;
using System.Text.Json;
using Microsoft.Azure.Cosmos;
using Microsoft.Extensions.Options;
using SensorPipeline.Core.DeviceStates;
using SensorPipeline.Core.Processing;
using SensorPipeline.Functions.Options;
using SensorPipeline.Functions.Storage;

namespace SensorPipeline.Functions.DeviceStates;

/// <summary>
/// This instance's <see cref="PendingStatesMark"/> in <c>devices</c>, and everyone's: renewing its own (a replace
/// conditioned on the ETag it last wrote — if another instance claimed it meanwhile, this instance starts a new mark
/// rather than overwrite the claim), listing all, claiming an expired one, deleting one. All through the point client,
/// in the marks' one logical partition.
/// </summary>
internal sealed class PendingStatesMarks : IDisposable
{
    private readonly Container _devices;
    private readonly StoreRetry _retry;
    private readonly TimeProvider _clock;
    private readonly TimeSpan _expiry;
    private readonly SemaphoreSlim _gate = new(1, 1);
    private readonly string _instance;
    private string? _etag;
    private long _renewedUnixMs = long.MinValue / 2;
    private volatile bool _closed;

    public PendingStatesMarks(StoreContainers containers, StoreRetry retry, TimeProvider clock, IOptions<PipelineOptions> options)
    {
        ArgumentNullException.ThrowIfNull(containers);
        ArgumentNullException.ThrowIfNull(options);
        (_devices, _retry, _clock, _expiry) = (containers.Devices, retry, clock, options.Value.DeviceStateMarkExpiry);
        // Azure names the instance; a fresh suffix per mark keeps a restarted process off its predecessor's mark.
        _instance = Environment.GetEnvironmentVariable("WEBSITE_INSTANCE_ID") is { Length: > 0 } site ? site[..Math.Min(site.Length, 16)] : Environment.MachineName;
        Id = NewId();
    }

    /// <summary>This process's current mark id.</summary>
    public string Id { get; private set; }

    /// <summary>
    /// Before an invocation commits: its states are pending here, so the mark must promise them. Renews the mark unless it
    /// was renewed within a quarter of the expiry (a reading committed under a current mark is stored before the mark's
    /// expiry: the recovery's window relies on it). Throws once the instance is stopping (<see cref="Close"/>): the
    /// invocation fails, and its batch is redelivered.
    /// </summary>
    public async Task EnsureCurrentAsync(Func<(long StoredBeforeUnixMs, int Pending)> snapshot, CancellationToken cancellationToken)
    {
        if (_closed)
        {
            // Taken as the store's, never an event's: the batch is retried (by the next owner), nothing dead-lettered.
            throw new StoreUnavailableException("pending-states mark (the instance is stopping)", HttpStatusCode.ServiceUnavailable, 0, null);
        }

        if (_clock.GetUtcNow().ToUnixTimeMilliseconds() - Volatile.Read(ref _renewedUnixMs) >= (long)(_expiry.TotalMilliseconds / 4))
        {
            await RenewAsync(snapshot, cancellationToken);
        }
    }

    /// <summary>Stopping: no invocation may commit on this mark any longer; the flusher writes what is pending.</summary>
    public void Close() => _closed = true;

    /// <summary>
    /// Writes this instance's mark from <paramref name="snapshot"/>: every reading it stored before the instant has its
    /// state durable, so many states are held. Throws when the store does not take it (the caller's invocation fails and
    /// is retried; the flusher tries again next round).
    /// </summary>
    public async Task RenewAsync(Func<(long StoredBeforeUnixMs, int Pending)> snapshot, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(snapshot);
        await _gate.WaitAsync(cancellationToken);
        try
        {
            // Taken inside the gate: a mark written later never carries an older instant than one written before.
            var now = _clock.GetUtcNow().ToUnixTimeMilliseconds();
            var (storedBefore, pending) = snapshot();
            var mark = new PendingStatesMark(Id, storedBefore, now, now + (long)_expiry.TotalMilliseconds, pending);
            var (status, etag) = await WriteAsync(mark, _etag, cancellationToken);
            if (status is HttpStatusCode.PreconditionFailed or HttpStatusCode.NotFound or HttpStatusCode.Conflict)
            {
                // Claimed (or already recovered) by another instance that took this one for dead: that claim covers
                // what this mark promised, so a new mark carries on from here. A create answered 409 had an attempt
                // time out after the store took it: that mark's ETag is unknown, so a new mark carries on too (the
                // other one expires and is recovered like a dead instance's).
                Id = NewId();
                (status, etag) = await WriteAsync(mark with { Id = Id }, null, cancellationToken);
            }

            if ((int)status is < 200 or > 299)
            {
                throw new StoreUnavailableException("pending-states mark", status, 1, null);
            }

            (_etag, _renewedUnixMs) = (etag, now);
        }
        finally
        {
            _gate.Release();
        }
    }

    /// <summary>Deletes this instance's own mark (graceful stop, every state written).</summary>
    public async Task DeleteOwnAsync(CancellationToken cancellationToken)
    {
        if (_etag is { } etag)
        {
            await DeleteAsync(Id, etag, cancellationToken);
            _etag = null;
        }
    }

    /// <summary>Every mark in the store with its ETag.</summary>
    public async Task<IReadOnlyList<(PendingStatesMark Mark, string ETag)>> ListAsync(CancellationToken cancellationToken)
    {
        var marks = new List<(PendingStatesMark, string)>();
        using var iterator = _devices.GetItemQueryStreamIterator("SELECT * FROM c", requestOptions: new QueryRequestOptions { PartitionKey = new PartitionKey(PendingStatesMark.PartitionKey) });
        await foreach (var document in StoreQuery.DocumentsAsync(iterator, "pending-states marks (query)", cancellationToken))
        {
            if (PendingStatesMark.Parse(document) is { } mark && document.TryGetProperty("_etag", out var etag))
            {
                marks.Add((mark, etag.GetString()!));
            }
        }

        return marks;
    }

    /// <summary>Claims an expired mark for recovery; the new ETag, or null when another instance changed it first.</summary>
    public async Task<string?> ClaimAsync(PendingStatesMark mark, string etag, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(mark);
        var now = _clock.GetUtcNow().ToUnixTimeMilliseconds();
        var claimed = mark with { ClaimedBy = Id, ClaimExpiresAtUnixMs = now + (long)_expiry.TotalMilliseconds };
        var (status, newEtag) = await WriteAsync(claimed, etag, cancellationToken);
        return status == HttpStatusCode.OK ? newEtag : null;
    }

    /// <summary>Deletes a mark if it still has <paramref name="etag"/> (a claim taken over meanwhile is left to its new claimant).</summary>
    public async Task DeleteAsync(string id, string etag, CancellationToken cancellationToken)
    {
        using var response = await _retry.ExecuteAsync(_devices.Id, "delete mark", (_devices, id, etag),
            static (s, token) => s._devices.DeleteItemStreamAsync(s.id, new PartitionKey(PendingStatesMark.PartitionKey), new ItemRequestOptions { IfMatchEtag = s.etag }, token),
            cancellationToken);
        if (!response.IsSuccessStatusCode && response.StatusCode is not (HttpStatusCode.NotFound or HttpStatusCode.PreconditionFailed))
        {
            throw new StoreUnavailableException("delete pending-states mark", response.StatusCode, 1, null);
        }
    }

    /// <summary>Creates the mark (no ETag) or replaces it if it still has <paramref name="etag"/>.</summary>
    private async Task<(HttpStatusCode Status, string? ETag)> WriteAsync(PendingStatesMark mark, string? etag, CancellationToken cancellationToken)
    {
        using var response = await _retry.ExecuteAsync(_devices.Id, "write mark", (_devices, mark, etag),
            static async (s, token) =>
            {
                using var stream = new MemoryStream(s.mark.ToJson(), writable: false);
                var key = new PartitionKey(PendingStatesMark.PartitionKey);
                return s.etag is null
                    ? await s._devices.CreateItemStreamAsync(stream, key, new ItemRequestOptions { EnableContentResponseOnWrite = false }, token)
                    : await s._devices.ReplaceItemStreamAsync(stream, s.mark.Id, key, new ItemRequestOptions { IfMatchEtag = s.etag, EnableContentResponseOnWrite = false }, token);
            },
            cancellationToken);
        return (response.StatusCode, response.Headers.ETag);
    }

    public void Dispose() => _gate.Dispose();

    private string NewId() => string.Create(CultureInfo.InvariantCulture, $"{_instance}-{Guid.NewGuid():N}");
}
