using Microsoft.Azure.Cosmos;
using Microsoft.Extensions.Options;
using SensorPipeline.Core.Processing;
using SensorPipeline.Functions.Options;

namespace SensorPipeline.Functions.Storage;

/// <summary>
/// Two deliveries of one reading (a producer's retry or duplicate) enqueued moments apart can fall on both sides of the max age: one
/// copy fresh, one stale, processed in either order on different partitions. Live wins, so the reading ends in exactly
/// one container. A fresh reading near the boundary deletes any archived copy after writing itself; a stale one, after
/// archiving itself, deletes its own archive copy if the reading is live. Write-then-check on both sides means every
/// interleaving ends with the archive copy gone: whichever copy is written second finds the first.
/// <para>Per invocation, not per reading: the checks run once every document of the invocation is written (so each one
/// is still written before it is checked), as one ReadMany of the near-boundary live ids against <c>archive</c> and one of
/// the stale ids against <c>readings</c>; only the hits cost a delete. A batch with no duplicate across the max age pays at most
/// those two requests. They go through the client that wrote the documents, so its session covers its own writes.</para>
/// </summary>
internal sealed class LiveArchiveReconciler(DocumentWriter writer, IOptions<PipelineOptions> options)
{
    private readonly TimeSpan _window = options.Value.EffectiveRedeliveryWindow;
    private readonly Core.Policies.StalenessPolicy _staleness = new(options.Value.MaxAge);

    /// <summary>
    /// Reconciles the stored documents of one invocation (<paramref name="stored"/>[i] for <c>result.Pending[i]</c>) and
    /// returns which stale ones turned out redundant (their archive copy removed because the reading is live).
    /// </summary>
    /// <param name="result">The processed envelopes.</param>
    /// <param name="stored">Which pending documents were written (a rejected one has nothing to reconcile).</param>
    /// <param name="nowMs">The batch's first attempt, as the staleness judgement used.</param>
    /// <param name="containers">The containers the documents were written through.</param>
    /// <param name="pointParallelism">Concurrent deletes when they go as point operations.</param>
    /// <param name="cancellationToken">The invocation's token.</param>
    public async Task<bool[]?> ReconcileAsync(ProcessResult result, bool[] stored, long nowMs, ContainerSet containers, int pointParallelism, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(stored);
        ArgumentNullException.ThrowIfNull(containers);
        if (_window <= TimeSpan.Zero)
        {
            return null;
        }

        var (nearBoundary, stale) = Candidates(result, stored, nowMs);
        if (nearBoundary is null && stale is null)
        {
            return null;
        }

        var archivedTwins = writer.ExistingAsync(containers.Archive, nearBoundary ?? [], cancellationToken);
        var liveTwins = writer.ExistingAsync(containers.Readings, stale ?? [], cancellationToken);
        await Task.WhenAll(archivedTwins, liveTwins);
        var live = await liveTwins;
        var archived = await archivedTwins;
        if (live.Count == 0 && archived.Count == 0)
        {
            return null;
        }

        var (deletes, liveAlready) = Redundant(result, stored, live, archived);
        var parallel = new ParallelOptions { MaxDegreeOfParallelism = containers.Parallelism(deletes.Count, pointParallelism), CancellationToken = cancellationToken };
        await Parallel.ForEachAsync(deletes, parallel, async (delete, token) =>
            await writer.DeleteIfExistsAsync(containers.Archive, delete.Value, delete.Key, token));
        return liveAlready;
    }

    /// <summary>The stored documents that may have a twin in the other container: a live copy within the window of the
    /// max age (its stale twin may be archived), and every stale copy (its live twin may have been written long ago).</summary>
    private (List<(string Id, PartitionKey Key)>? NearBoundary, List<(string Id, PartitionKey Key)>? Stale) Candidates(ProcessResult result, bool[] stored, long nowMs)
    {
        List<(string Id, PartitionKey Key)>? nearBoundary = null;
        List<(string Id, PartitionKey Key)>? stale = null;
        for (var i = 0; i < result.Pending.Count; i++)
        {
            var document = result.Pending[i];
            if (!stored[i])
            {
                continue;
            }

            if (document.Target == DocumentTarget.Archive)
            {
                (stale ??= []).Add((document.Id, new PartitionKey(document.DeviceId)));
            }
            else if (_staleness.IsWithinOfMaxAge(document.EnqueuedUnixMs, nowMs, _window))
            {
                (nearBoundary ??= []).Add((document.Id, new PartitionKey(document.DeviceId)));
            }
        }

        return (nearBoundary, stale);
    }

    /// <summary>The archive copies to remove (id → device) and which stale documents are live already. Both kinds of
    /// hit remove the archive copy under the reading's id: the live copy's twin, or the stale copy itself.</summary>
    private static (Dictionary<string, string> Deletes, bool[] LiveAlready) Redundant(ProcessResult result, bool[] stored, HashSet<string> live, HashSet<string> archived)
    {
        var deletes = new Dictionary<string, string>(StringComparer.Ordinal);
        var liveAlready = new bool[result.Pending.Count];
        for (var i = 0; i < result.Pending.Count; i++)
        {
            var document = result.Pending[i];
            if (stored[i] && (document.Target == DocumentTarget.Live ? archived.Contains(document.Id) : live.Contains(document.Id)))
            {
                deletes.TryAdd(document.Id, document.DeviceId);
                liveAlready[i] = document.Target == DocumentTarget.Archive;
            }
        }

        return (deletes, liveAlready);
    }
}
