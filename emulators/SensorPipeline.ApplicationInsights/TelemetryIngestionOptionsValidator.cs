namespace SensorPipeline.ApplicationInsights;

/// <summary>Every range check for <see cref="TelemetryIngestionOptions"/>, once at start-up; messages name the setting.</summary>
internal sealed class TelemetryIngestionOptionsValidator : IValidateOptions<TelemetryIngestionOptions>
{
    public ValidateOptionsResult Validate(string? name, TelemetryIngestionOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var failures = new List<string>();
        if (options.MaxMetricPoints is < 1000 or > 10_000_000)
        {
            failures.Add($"Telemetry__MaxMetricPoints must be from 1000 to 10000000, found {options.MaxMetricPoints}.");
        }

        if (options.MaxRequestBytes is < 1024 or > 256L * 1024 * 1024)
        {
            failures.Add($"Telemetry__MaxRequestBytes must be from 1024 to 268435456, found {options.MaxRequestBytes}.");
        }

        if (options.MaxDecompressedBytes < options.MaxRequestBytes || options.MaxDecompressedBytes > 1024L * 1024 * 1024)
        {
            failures.Add($"Telemetry__MaxDecompressedBytes must be from Telemetry__MaxRequestBytes ({options.MaxRequestBytes}) to 1073741824, found {options.MaxDecompressedBytes}.");
        }

        if (options.MaxItemBytes is < 1024 or > 1024 * 1024)
        {
            failures.Add($"Telemetry__MaxItemBytes must be from 1024 to 1048576, found {options.MaxItemBytes}.");
        }

        if (options.MaxStoredBytes is < 1024 * 1024 or > 16L * 1024 * 1024 * 1024)
        {
            failures.Add($"Telemetry__MaxStoredBytes must be from 1048576 to 17179869184, found {options.MaxStoredBytes}.");
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }
}
