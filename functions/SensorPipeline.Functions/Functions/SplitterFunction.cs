using System.Globalization;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.ObjectPool;
using SensorPipeline.Core.Splitting;
using SensorPipeline.Functions.Invocation;
using SensorPipeline.Functions.Storage;
using SensorPipeline.Functions.Telemetry;

namespace SensorPipeline.Functions.Functions;

/// <summary>
/// The Splitter function: ingestion events in, one weather and one seismic envelope out (the host sends each
/// output as one event), undecodable and oversize events and invalid readings to the dead letters.
/// </summary>
internal sealed class SplitterFunction(ObjectPool<Splitter> splitters, EnvelopeBudget budget, DeadLetterStore deadLetters, TimeProvider clock, PipelineMetrics metrics, ILogger<SplitterFunction> logger)
{
    public const string Name = "Splitter";
    public const string TriggerName = "events";
    public const string WeatherOutput = "weatherOut";
    public const string SeismicOutput = "seismicOut";

    public async Task InvokeAsync(HttpContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        var cancellationToken = context.RequestAborted;
        using var request = await InvocationRequestReader.ReadAsync(context.Request, TriggerName, cancellationToken);
        // An app setting can raise the host's batch size above the host.json file read at start-up. Refusing the batch
        // would be retried forever and wedge the partition; a budget made for this batch's size keeps the envelope
        // guarantee instead (an event over its smaller share is dead-lettered as oversize, never lost).
        var larger = request.Events.Count > budget.MaxEventBatchSize;
        var splitter = larger ? new Splitter(new EnvelopeBudget(request.Events.Count)) : splitters.Get();
        try
        {
            var now = clock.GetUtcNow();
            var result = splitter.Split(request.Events, now.ToUnixTimeMilliseconds());
            metrics.BatchReceived(Name, request.PartitionId, request.Events, result.ReadingsReceived, now);

            // Commit point (1 of 2): dead letters are stored before we answer 2xx. If that fails the invocation fails,
            // the host sends nothing and retries the batch, and the checkpoint stays behind it (at-least-once; the
            // dead letters' ids are deterministic, so a re-run overwrites rather than duplicates them).
            await deadLetters.WriteAsync(result.DeadLetters, now, cancellationToken);
            metrics.DeadLettered(Name, result.DeadLetters);

            // Commit point (2 of 2): a 2xx hands the envelopes to the host, which sends them and only then lets the
            // listener checkpoint. A kind with no readings has no output, so no empty event is sent. Once the host has
            // cancelled the call, nothing is acknowledged.
            cancellationToken.ThrowIfCancellationRequested();
            var outputs = new List<OutputEvent>(2);
            if (!result.Weather.IsEmpty)
            {
                outputs.Add(new OutputEvent(WeatherOutput, result.Weather));
            }

            if (!result.Seismic.IsEmpty)
            {
                outputs.Add(new OutputEvent(SeismicOutput, result.Seismic));
            }

            FunctionsLog.Split(logger, request.PartitionId, request.Events.Count, result.ReadingsReceived, result.WeatherReadings, result.SeismicReadings, result.DeadLetters.Count, request.RetryCount);
            var summary = string.Create(CultureInfo.InvariantCulture,
                $"Splitter: {request.Events.Count} events, {result.ReadingsReceived} readings; weather {result.WeatherReadings}, seismic {result.SeismicReadings}, dead letters {result.DeadLetters.Count}");
            await InvocationResponse.WriteAsync(context.Response, StatusCodes.Status200OK, outputs, [summary], cancellationToken);
        }
        finally
        {
            // The envelopes live in the splitter's buffers: it goes back to the pool only after the response is written.
            if (!larger)
            {
                splitters.Return(splitter);
            }
        }
    }
}
