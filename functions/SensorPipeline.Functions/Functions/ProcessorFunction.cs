using System.Collections.Concurrent;
using System.Globalization;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.ObjectPool;
using Microsoft.Extensions.Options;
using SensorPipeline.Core.DeadLetters;
using SensorPipeline.Core.Processing;
using SensorPipeline.Core.Readings;
using SensorPipeline.Functions.Invocation;
using SensorPipeline.Functions.Options;
using SensorPipeline.Functions.Storage;
using SensorPipeline.Functions.Telemetry;

namespace SensorPipeline.Functions.Functions;

/// <summary>
/// A processor function (weather or seismic): envelopes in; fresh readings to <c>readings</c>, stale ones to
/// <c>archive</c>, the newest reading per device to <c>devices</c> through the guarded write, and everything
/// unusable to <c>deadletters</c>. Answers 2xx only when every document is stored.
/// </summary>
internal sealed class ProcessorFunction(
    ProcessorDefinition definition,
    ObjectPool<EnvelopeProcessor> processors,
    StoreContainers containers,
    DocumentWriter writer,
    DeviceStateGuard devices,
    DeadLetterStore deadLetters,
    IOptions<PipelineOptions> options,
    TimeProvider clock,
    PipelineMetrics metrics,
    ILogger<ProcessorFunction> logger)
{
    public async Task InvokeAsync(HttpContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        var cancellationToken = context.RequestAborted;
        using var request = await InvocationRequestReader.ReadAsync(context.Request, ProcessorDefinition.TriggerName, cancellationToken);
        var processor = processors.Get();
        try
        {
            var now = clock.GetUtcNow();
            var result = processor.Process(request.Events, now.ToUnixTimeMilliseconds());
            metrics.BatchReceived(definition.Name, request.PartitionId, request.Events, result.ReadingsReceived, now);
            var counts = await WriteAsync(result, request, now, cancellationToken);

            // Commit point: only now, with every reading, archived reading, device state and dead letter stored, do we
            // answer 2xx and let the host checkpoint the batch. Any failure above throws and answers non-2xx: the host
            // retries the batch (at-least-once), and the deterministic ids make the re-run overwrite, not duplicate.
            // Once the host has cancelled the call, nothing is acknowledged, even though everything was written.
            cancellationToken.ThrowIfCancellationRequested();
            FunctionsLog.Processed(logger, definition.Name, request.PartitionId, request.Events.Count, result.ReadingsReceived,
                counts.Live, counts.Archived, counts.DevicesUpdated, counts.DevicesSuperseded, counts.DeadLetters, request.RetryCount);
            var summary = string.Create(CultureInfo.InvariantCulture,
                $"{definition.Name}: {request.Events.Count} envelopes, {result.ReadingsReceived} readings; live {counts.Live}, archived {counts.Archived}, devices {counts.DevicesUpdated} updated / {counts.DevicesSuperseded} superseded, dead letters {counts.DeadLetters}, stale copies of live readings {counts.RedundantStale}");
            await InvocationResponse.WriteAsync(context.Response, StatusCodes.Status200OK, [], [summary], cancellationToken);
        }
        finally
        {
            // The documents live in the processor's buffer: it goes back to the pool only after every write finished.
            processors.Return(processor);
        }
    }

    /// <summary>Writes one processed batch; internal for the benchmark, which measures exactly this path.</summary>
    internal async Task<WriteCounts> WriteAsync(ProcessResult result, InvocationRequest request, DateTimeOffset now, CancellationToken cancellationToken)
    {
        var parallel = new ParallelOptions { MaxDegreeOfParallelism = options.Value.WriteParallelism, CancellationToken = cancellationToken };
        var rejected = new ConcurrentBag<DeadLetter>();
        var batchStart = request.Events.Count > 0 ? request.Events[0].Position : new SourcePosition(request.PartitionId, 0, 0);
        var live = 0;
        var archived = 0;
        var redundant = 0;
        var nowMs = now.ToUnixTimeMilliseconds();

        // Readings first, so a device's latest state never points at a reading that is not stored yet.
        await Parallel.ForEachAsync(Indices(result.Pending.Count), parallel, async (i, token) =>
        {
            var document = result.Pending[i];
            var container = document.Target == DocumentTarget.Live ? containers.Readings : containers.Archive;
            var outcome = await writer.UpsertAsync(container, document.DeviceId, result.Bytes(document), token);
            if (outcome.Result == WriteResult.Rejected)
            {
                rejected.Add(StoreRejection(batchStart, i, document.DeviceId, result.Bytes(document), $"{document.Id} → {container.Id}: {outcome.Detail}"));
                return;
            }

            metrics.ReadingWritten(definition.Name, request.PartitionId, document.EnqueuedUnixMs, document.ObservedUnixMs);
            if (await ReconcileStraddleAsync(document, nowMs, token))
            {
                Interlocked.Increment(ref redundant);
            }
            else
            {
                Interlocked.Increment(ref document.Target == DocumentTarget.Live ? ref live : ref archived);
            }
        });

        var updated = 0;
        var superseded = 0;
        await Parallel.ForEachAsync(Indices(result.Latest.Count), parallel, async (i, token) =>
        {
            var latest = result.Latest[i];
            var bytes = result.Documents.Slice(latest.DocumentOffset, latest.DocumentLength);
            var outcome = await devices.WriteAsync(containers.Devices, latest, bytes, token);
            switch (outcome.Result)
            {
                case WriteResult.Written:
                    Interlocked.Increment(ref updated);
                    break;
                case WriteResult.Superseded:
                    Interlocked.Increment(ref superseded);
                    break;
                default:
                    rejected.Add(StoreRejection(batchStart, result.Pending.Count + i, latest.DeviceId, bytes, $"device {latest.DeviceId} → {containers.Devices.Id}: {outcome.Detail}"));
                    break;
            }
        });

        var allDeadLetters = rejected.IsEmpty ? result.DeadLetters : [.. result.DeadLetters, .. rejected];
        await deadLetters.WriteAsync(allDeadLetters, now, cancellationToken);
        metrics.BatchStored(definition.Name, request.PartitionId, live + archived, archived);
        metrics.DeadLettered(definition.Name, allDeadLetters);
        return new WriteCounts(live, archived, updated, superseded, allDeadLetters.Count, redundant);
    }

    /// <summary>
    /// Two deliveries of one reading (a producer retry or duplicate) enqueued moments apart can straddle the max age:
    /// one copy fresh, one stale, processed in either order on different partitions. Live wins, so the reading ends
    /// in exactly one container. A fresh reading near the boundary deletes any archived copy after writing itself; a
    /// stale one, after archiving itself, deletes its own archive copy if the reading is live. Write-then-check on
    /// both sides means every interleaving ends with the archive copy gone. Only readings within the redelivery
    /// window of the max age pay for it. True when this document turned out redundant (its archive copy removed).
    /// </summary>
    private async Task<bool> ReconcileStraddleAsync(PendingDocument document, long nowMs, CancellationToken cancellationToken)
    {
        var window = TimeSpan.FromTicks(Math.Min(options.Value.RedeliveryWindow.Ticks, options.Value.MaxAge.Ticks));
        if (window <= TimeSpan.Zero)
        {
            return false;
        }

        if (document.Target == DocumentTarget.Live)
        {
            var age = nowMs - document.EnqueuedUnixMs;
            if (age > (long)(options.Value.MaxAge - window).TotalMilliseconds)
            {
                await writer.DeleteIfExistsAsync(containers.Archive, document.DeviceId, document.Id, cancellationToken);
            }

            return false;
        }

        if (!await writer.ExistsAsync(containers.Readings, document.DeviceId, document.Id, cancellationToken))
        {
            return false;
        }

        await writer.DeleteIfExistsAsync(containers.Archive, document.DeviceId, document.Id, cancellationToken);
        return true;
    }

    /// <summary>
    /// A document the store refused for good. Its dead letter id is deterministic for a redelivered batch:
    /// stage "&lt;stage&gt;-store", the batch's first envelope position and the document's index in the batch.
    /// </summary>
    private DeadLetter StoreRejection(SourcePosition batchStart, int index, string deviceId, ReadOnlyMemory<byte> document, string detail) =>
        new(definition.Stage + "-store", DeadLetterReason.RejectedByStore, batchStart, index, deviceId, document.ToArray(), detail);

    private static IEnumerable<int> Indices(int count) => Enumerable.Range(0, count);
}

/// <summary>What one processor invocation stored.</summary>
/// <param name="Live">Readings written to <c>readings</c>.</param>
/// <param name="Archived">Stale readings written to <c>archive</c> (and not also live).</param>
/// <param name="DevicesUpdated">Device states moved forward.</param>
/// <param name="DevicesSuperseded">Device writes a newer stored state won.</param>
/// <param name="DeadLetters">Dead letters stored.</param>
/// <param name="RedundantStale">Stale copies of readings that were already live (a redelivery straddling the max age), removed from the archive.</param>
internal readonly record struct WriteCounts(int Live, int Archived, int DevicesUpdated, int DevicesSuperseded, int DeadLetters, int RedundantStale);
