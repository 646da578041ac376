using Microsoft.ApplicationInsights;
using Microsoft.Extensions.Options;

namespace SensorPipeline.Functions.Telemetry;

/// <summary>
/// Ends each metric aggregation period every <see cref="TelemetryOptions.MetricFlushInterval"/> with
/// <see cref="PipelineMetrics.Cut"/>, the only cut (the handler aggregates itself instead of through the SDK's
/// <c>GetMetric</c>, whose fixed minute cycle cannot be stopped): the period can be longer than a minute (5 min in Azure,
/// a fifth of the items) or shorter (2 s for devhost's dashboard). Aggregates carry
/// <c>_MS.AggregationIntervalMs</c> = the time since the previous cut, and are sent at once. On shutdown the last
/// partial period is cut and sent, so a short run loses nothing.
/// </summary>
internal sealed class MetricFlusher(PipelineMetrics metrics, TelemetryClient client, IOptions<TelemetryOptions> options,
    TimeProvider clock, ILogger<MetricFlusher> logger) : BackgroundService
{
    /// <summary>The property every aggregate carries: its period's length in ms, as the SDK writes it.</summary>
    internal const string AggregationIntervalProperty = "_MS.AggregationIntervalMs";

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        var interval = options.Value.MetricFlushInterval;
        FunctionsLog.TelemetryOn(logger, interval.TotalSeconds);
        using var timer = new PeriodicTimer(interval, clock);
        try
        {
            while (await timer.WaitForNextTickAsync(stoppingToken))
            {
                // Send the period now rather than on the channel's own timer, whose first wait is its 30 s default
                // whatever SendingInterval says afterwards.
                metrics.Cut();
                await client.FlushAsync(stoppingToken);
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
            // Shutting down: StopAsync cuts the final period below.
        }
    }

    public override async Task StopAsync(CancellationToken cancellationToken)
    {
        await base.StopAsync(cancellationToken);

        // The last partial period: without this a run shorter than the interval would send no metric at all.
        // TelemetryClient.Flush hands everything cut to the channel, which sends it synchronously.
        metrics.Cut();
        client.Flush();
    }
}
