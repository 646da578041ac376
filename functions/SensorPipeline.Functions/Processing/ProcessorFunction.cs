using System.Globalization;
using Microsoft.Extensions.ObjectPool;
using SensorPipeline.Core.Processing;
using SensorPipeline.Core.Splitting;
using SensorPipeline.Functions.Invocation;
using SensorPipeline.Functions.Telemetry;

namespace SensorPipeline.Functions.Processing;

/// <summary>
/// A processor function (one per kind of sensor-kinds.json): envelopes in; fresh readings to <c>readings</c>, stale ones to
/// <c>archive</c>, the newest reading per device to <c>devices</c> through the guarded write, and everything
/// unusable to <c>deadletters</c>. Answers 2xx only when every document is stored.
/// </summary>
internal sealed class ProcessorFunction(
    ProcessorDefinition definition,
    ObjectPool<EnvelopeProcessor> processors,
    EnvelopeBudget budget,
    BatchWriter writer,
    PoisonIsolation isolation,
    TimeProvider clock,
    PipelineMetrics metrics,
    ILogger<ProcessorFunction> logger)
{
    public async Task InvokeAsync(HttpContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        var cancellationToken = context.RequestAborted;
        using var request = await InvocationRequestReader.ReadAsync(context.Request, ProcessorDefinition.TriggerName, budget.MaxEventBatchSize, cancellationToken);
        var now = clock.GetUtcNow();
        // Every attempt reports its batch's age, a failing one too — a refused one included: a retried batch shows as a
        // growing age (the stall alarm).
        metrics.BatchArrived(definition.Name, request.PartitionId, request.Events, now);
        if (request.Refusal is { } refusal)
        {
            throw refusal;
        }

        var tally = new BatchTally();
        var poison = await isolation.RunAsync(definition.Name, definition.Stage, request,
            (events, firstAttempt, token) => ProcessAsync(events, request, firstAttempt, tally, token), cancellationToken);

        // Commit point: only now, with every reading, archived reading and dead letter stored, and every device state
        // pending under a current mark (written within W, or rebuilt from readings if this instance dies), do we
        // answer 2xx and let the host checkpoint the batch. Any failure above throws and answers non-2xx: the host
        // retries the batch (at-least-once), and the deterministic ids make the re-run overwrite, not duplicate.
        // Once the host has cancelled the call, nothing is acknowledged, even though everything was written.
        cancellationToken.ThrowIfCancellationRequested();
        // Counted once, at the commit: a failed attempt that wrote some readings before failing counts nothing.
        tally.Report(metrics, definition.Name, request.PartitionId, request.Events);
        var counts = tally.Counts;
        FunctionsLog.Processed(logger, definition.Name, request.PartitionId, request.Events.Count, tally.ReadingsReceived,
            counts.Live, counts.Archived, counts.DeviceStates, counts.DeadLetters + poison.Count, request.RetryCount);
        var summary = string.Create(CultureInfo.InvariantCulture,
            $"{definition.Name}: {request.Events.Count} envelopes, {tally.ReadingsReceived} readings; live {counts.Live}, archived {counts.Archived}, device states {counts.DeviceStates} pending, dead letters {counts.DeadLetters}, stale copies of live readings {counts.RedundantStale}, poison envelopes {poison.Count}");
        await InvocationResponse.WriteAsync(context.Response, StatusCodes.Status200OK, [summary], cancellationToken);
    }

    /// <summary>
    /// Processes and stores some of the batch's envelopes (all of them, or a subset while isolating poison), judging
    /// staleness at the batch's first attempt so a re-run writes what the first attempt would have. Adds to
    /// <paramref name="tally"/> only when everything is stored.
    /// </summary>
    private async Task ProcessAsync(IReadOnlyList<InputEvent> envelopes, InvocationRequest request, DateTimeOffset firstAttempt, BatchTally tally, CancellationToken cancellationToken)
    {
        var processor = processors.Get();
        try
        {
            var result = processor.Process(envelopes, firstAttempt.ToUnixTimeMilliseconds());
            var part = new BatchTally();
            await writer.WriteAsync(result, firstAttempt, part, cancellationToken);
            tally.Add(part, result.ReadingsReceived);
        }
        finally
        {
            // The documents live in the processor's buffer: it goes back to the pool only after every write finished.
            processors.Return(processor);
        }
    }
}
