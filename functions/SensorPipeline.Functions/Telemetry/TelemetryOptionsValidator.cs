using SensorPipeline.Functions.Options;

namespace SensorPipeline.Functions.Telemetry;

/// <summary>Every check for <see cref="TelemetryOptions"/>, run once at start-up; messages name the setting.</summary>
internal sealed class TelemetryOptionsValidator : SettingsValidator<TelemetryOptions>
{
    protected override void Check(TelemetryOptions options, List<string> failures)
    {
        Within(failures, "Telemetry__MetricFlushInterval", options.MetricFlushInterval, TimeSpan.FromSeconds(1), TelemetryOptions.MaxMetricFlushInterval);
        Within(failures, "Telemetry__PartitionLagThreshold", options.PartitionLagThreshold, TimeSpan.Zero, TimeSpan.FromHours(1));
        if (options.HistogramBucketsPerDoubling is not (8 or 4 or 2 or 1))
        {
            failures.Add($"Telemetry__HistogramBucketsPerDoubling must be 8, 4, 2 or 1, found {options.HistogramBucketsPerDoubling}.");
        }

        if (options.Enabled && !options.ConnectionString!.Contains("InstrumentationKey=", StringComparison.OrdinalIgnoreCase))
        {
            failures.Add($"{TelemetryOptions.ConnectionStringSetting} must contain InstrumentationKey=<guid> (and IngestionEndpoint=...), or be unset to turn telemetry off.");
        }

        if (!string.IsNullOrWhiteSpace(options.AuthenticationString) && !TelemetryAuthentication.TryParse(options.AuthenticationString, out _, out var error))
        {
            failures.Add($"{TelemetryOptions.AuthenticationStringSetting}: {error}");
        }
    }
}
