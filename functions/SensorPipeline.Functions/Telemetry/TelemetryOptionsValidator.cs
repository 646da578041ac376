using Microsoft.Extensions.Options;

namespace SensorPipeline.Functions.Telemetry;

/// <summary>Every check for <see cref="TelemetryOptions"/>, run once at start-up; messages name the setting.</summary>
internal sealed class TelemetryOptionsValidator : IValidateOptions<TelemetryOptions>
{
    public ValidateOptionsResult Validate(string? name, TelemetryOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var failures = new List<string>();
        if (options.MetricFlushInterval < TimeSpan.FromSeconds(1) || options.MetricFlushInterval > TelemetryOptions.MaxMetricFlushInterval)
        {
            failures.Add($"Telemetry__MetricFlushInterval must be from 00:00:01 to {TelemetryOptions.MaxMetricFlushInterval:c}, found {options.MetricFlushInterval}.");
        }

        if (options.PartitionLagThreshold < TimeSpan.Zero || options.PartitionLagThreshold > TimeSpan.FromHours(1))
        {
            failures.Add($"Telemetry__PartitionLagThreshold must be from 00:00:00 to 01:00:00, found {options.PartitionLagThreshold}.");
        }

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

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }
}
