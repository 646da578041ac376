using System.Globalization;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.ObjectPool;
using SensorPipeline.Core.Splitting;
using SensorPipeline.Functions.Invocation;
using SensorPipeline.Functions.Storage;
using SensorPipeline.Functions.Telemetry;

namespace SensorPipeline.Functions.Processing;

/// <summary>
/// The Splitter function: ingestion events in, as many weather and seismic text envelopes out as their readings need
/// (each output a JSON array; the host sends one event per element), undecodable events and invalid or
/// unforwardable readings to the dead letters.
/// </summary>
internal sealed class SplitterFunction(ObjectPool<Splitter> splitters, DeadLetterStore deadLetters, EnvelopeBudget budget, TimeProvider clock, PipelineMetrics metrics,
    ILogger<SplitterFunction> logger)
{
    public const string Name = "Splitter";
    public const string TriggerName = "events";
    public const string WeatherOutput = "weatherOut";
    public const string SeismicOutput = "seismicOut";

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

        var splitter = splitters.Get();
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
            var outputs = new List<OutputEvents>(2);
            if (result.Weather.Count > 0)
            {
                outputs.Add(new OutputEvents(WeatherOutput, result.Weather));
            }

            if (result.Seismic.Count > 0)
            {
                outputs.Add(new OutputEvents(SeismicOutput, result.Seismic));
            }

            FunctionsLog.Split(logger, request.PartitionId, request.Events.Count, result.ReadingsReceived, result.WeatherReadings, result.SeismicReadings, result.DeadLetters.Count, request.RetryCount);
            var summary = string.Create(CultureInfo.InvariantCulture,
                $"Splitter: {request.Events.Count} events, {result.ReadingsReceived} readings; weather {result.WeatherReadings} in {result.Weather.Count} envelopes, seismic {result.SeismicReadings} in {result.Seismic.Count}, dead letters {result.DeadLetters.Count}");
            await InvocationResponse.WriteAsync(context.Response, StatusCodes.Status200OK, outputs, [summary], cancellationToken);
        }
        finally
        {
            // The envelopes live in the splitter's buffers: it goes back to the pool only after the response is written.
            splitters.Return(splitter);
        }
    }
}
