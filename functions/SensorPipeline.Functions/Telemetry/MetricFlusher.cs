using Microsoft.ApplicationInsights;
using Microsoft.ApplicationInsights.Extensibility;
using Microsoft.ApplicationInsights.Metrics;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace SensorPipeline.Functions.Telemetry;

/// <summary>
/// Cuts the metric aggregation period to <see cref="TelemetryOptions.MetricFlushInterval"/>. The SDK aggregates for 60 s
/// before it sends; in 2.23 <c>MetricManager.Flush()</c> completes the current cycle (aggregates carry
/// <c>_MS.AggregationIntervalMs</c> = the time since the previous cut) and starts the next, and the channel, whose
/// <c>SendingInterval</c> is at most the same interval, sends them. At 60 s the SDK's own cycle (cut at each minute
/// boundary) does the job alone: a second, unaligned 60 s cut would send every series twice a minute, doubling the cost.
/// On shutdown the last partial period is flushed so a short run loses nothing.
/// </summary>
internal sealed class MetricFlusher(TelemetryConfiguration configuration, TelemetryClient client, IOptions<TelemetryOptions> options,
    TimeProvider clock, ILogger<MetricFlusher> logger) : BackgroundService
{
    /// <summary>The SDK's default aggregation cycle, cut at every minute boundary.</summary>
    internal static readonly TimeSpan SdkAggregationPeriod = TimeSpan.FromMinutes(1);

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        var interval = options.Value.MetricFlushInterval;
        FunctionsLog.TelemetryOn(logger, interval.TotalSeconds);
        if (interval >= SdkAggregationPeriod)
        {
            return;
        }

        using var timer = new PeriodicTimer(interval, clock);
        try
        {
            while (await timer.WaitForNextTickAsync(stoppingToken))
            {
                configuration.GetMetricManager().Flush();
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
            // Shutting down: StopAsync flushes the final period below.
        }
    }

    public override async Task StopAsync(CancellationToken cancellationToken)
    {
        await base.StopAsync(cancellationToken);

        // The last partial period: without this a run shorter than the interval would send no metric at all.
        // TelemetryClient.Flush cuts the aggregates and hands them to the channel, which sends them synchronously.
        client.Flush();
    }
}
