using System.Globalization;
using Microsoft.Extensions.ObjectPool;
using SensorPipeline.Core.Splitting;
using SensorPipeline.Functions.Forwarding;
using SensorPipeline.Functions.Invocation;
using SensorPipeline.Functions.Storage;
using SensorPipeline.Functions.Telemetry;

namespace SensorPipeline.Functions.Processing;

/// <summary>
/// The Splitter function: ingestion events in; as many envelopes of each kind out as their readings need,
/// each sent to the partition of its hub its devices belong to (<see cref="DevicePartitioner"/>) through
/// <see cref="EnvelopeForwarder"/>; undecodable events and invalid or unforwardable readings to the dead letters.
/// </summary>
internal sealed class SplitterFunction(ObjectPool<Splitter> splitters, EnvelopeForwarder forwarder, DeadLetterStore deadLetters, EnvelopeBudget budget, TimeProvider clock,
    PipelineMetrics metrics, ILogger<SplitterFunction> logger)
{
    public const string Name = "Splitter";
    public const string TriggerName = "events";

    public async Task InvokeAsync(HttpContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        var cancellationToken = context.RequestAborted;
        using var request = await InvocationRequestReader.ReadAsync(context.Request, TriggerName, budget.MaxEventBatchSize, cancellationToken);
        if (request.Refusal is { } refusal)
        {
            // Its age still counts (the stall alarm) before it is refused.
            metrics.BatchArrived(Name, request.PartitionId, request.Events, clock.GetUtcNow());
            throw refusal;
        }

        // Read once per process, then cached; a hub that cannot be reached fails the invocation here, before anything is written.
        var partitionCounts = await forwarder.PartitionCountsAsync(cancellationToken);
        var splitter = splitters.Get();
        try
        {
            var now = clock.GetUtcNow();
            var result = splitter.Split(request.Events, now.ToUnixTimeMilliseconds(), partitionCounts);
            metrics.BatchReceived(Name, request.PartitionId, request.Events, result.ReadingsReceived, now);

            // Commit point (1 of 2): dead letters are stored before we answer 2xx. If that fails the invocation fails,
            // the host sends nothing and retries the batch, and the checkpoint stays behind it (at-least-once; the
            // dead letters' ids are deterministic, so a re-run overwrites rather than duplicates them).
            await deadLetters.WriteAsync(result.DeadLetters, now, cancellationToken);
            metrics.DeadLettered(Name, result.DeadLetters);

            // Commit point (2 of 2): every envelope is sent to its partition and acknowledged by the hub before we answer
            // 2xx, which lets the host checkpoint. A failed send fails the invocation: the host re-runs the batch, and
            // the envelopes that did arrive before the failure arrive again (at-least-once; the processors' writes are
            // idempotent). Once the host has cancelled the call, nothing more is sent.
            cancellationToken.ThrowIfCancellationRequested();
            await forwarder.SendAsync(result, cancellationToken);

            var kinds = string.Join(", ", result.Kinds.Select(static k =>
                string.Create(CultureInfo.InvariantCulture, $"{k.Definition.Name} {k.Readings} in {k.Envelopes.Count} envelopes to {k.Partitions.Count} partitions")));
            FunctionsLog.Split(logger, request.PartitionId, request.Events.Count, result.ReadingsReceived, kinds, result.DeadLetters.Count, request.RetryCount);
            var summary = string.Create(CultureInfo.InvariantCulture,
                $"Splitter: {request.Events.Count} events, {result.ReadingsReceived} readings; {kinds}, dead letters {result.DeadLetters.Count}");
            await InvocationResponse.WriteAsync(context.Response, StatusCodes.Status200OK, [summary], cancellationToken);
        }
        finally
        {
            // The envelopes live in the splitter's buffers: it goes back to the pool only after the response is written.
            splitters.Return(splitter);
        }
    }
}
