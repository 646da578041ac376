using Microsoft.Extensions.Options;

namespace SensorPipeline.Functions.Options;

/// <summary>Every range check for <see cref="PipelineOptions"/>, run once at start-up; messages name the setting.</summary>
internal sealed class PipelineOptionsValidator : IValidateOptions<PipelineOptions>
{
    public ValidateOptionsResult Validate(string? name, PipelineOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var failures = new List<string>();
        if (options.MaxAge <= TimeSpan.Zero)
        {
            failures.Add($"Pipeline__MaxAge must be a positive duration like 00:05:00, found {options.MaxAge}.");
        }

        if (options.MaxClockSkew < TimeSpan.Zero || options.MaxClockSkew > TimeSpan.FromDays(1))
        {
            failures.Add($"Pipeline__MaxClockSkew must be from 00:00:00 to 1.00:00:00, found {options.MaxClockSkew}.");
        }

        if (options.WriteParallelism is < 1 or > 256)
        {
            failures.Add($"Pipeline__WriteParallelism must be from 1 to 256, found {options.WriteParallelism}.");
        }

        if (options.BulkMinimumDocuments is < 1 or > 1_000_000)
        {
            failures.Add($"Pipeline__BulkMinimumDocuments must be from 1 to 1000000, found {options.BulkMinimumDocuments}.");
        }

        if (options.TransientRetryCount is < 0 or > 20)
        {
            failures.Add($"Pipeline__TransientRetryCount must be from 0 to 20, found {options.TransientRetryCount}.");
        }

        if (options.TransientRetryBaseDelay < TimeSpan.Zero || options.TransientRetryBaseDelay > TimeSpan.FromMinutes(1))
        {
            failures.Add($"Pipeline__TransientRetryBaseDelay must be from 00:00:00 to 00:01:00, found {options.TransientRetryBaseDelay}.");
        }

        if (options.TransientRetryMaxDelay < options.TransientRetryBaseDelay || options.TransientRetryMaxDelay > TimeSpan.FromMinutes(1))
        {
            failures.Add($"Pipeline__TransientRetryMaxDelay must be from Pipeline__TransientRetryBaseDelay ({options.TransientRetryBaseDelay}) to 00:01:00, found {options.TransientRetryMaxDelay}.");
        }

        if (options.RedeliveryWindow < TimeSpan.Zero || options.RedeliveryWindow > TimeSpan.FromHours(1))
        {
            failures.Add($"Pipeline__RedeliveryWindow must be from 00:00:00 to 01:00:00, found {options.RedeliveryWindow}.");
        }

        ValidateDeviceStates(options, failures);

        if (options.IsolateAfterAttempts is < 2 or > 100)
        {
            failures.Add($"Pipeline__IsolateAfterAttempts must be from 2 to 100, found {options.IsolateAfterAttempts}.");
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }

    /// <summary>The device-state settings: W, the mark's expiry, the recovery's clock margin.</summary>
    private static void ValidateDeviceStates(PipelineOptions options, List<string> failures)
    {
            if (options.DeviceStateLag < TimeSpan.FromMilliseconds(50) || options.DeviceStateLag > TimeSpan.FromSeconds(10))
            {
                failures.Add($"Pipeline__DeviceStateLag must be from 00:00:00.050 to 00:00:10, found {options.DeviceStateLag}.");
            }

            if (options.DeviceStateMarkExpiry < TimeSpan.FromSeconds(2) || options.DeviceStateMarkExpiry > TimeSpan.FromMinutes(10))
            {
                failures.Add($"Pipeline__DeviceStateMarkExpiry must be from 00:00:02 to 00:10:00, found {options.DeviceStateMarkExpiry}.");
            }

            if (options.DeviceStateClockMargin < TimeSpan.FromSeconds(1) || options.DeviceStateClockMargin > TimeSpan.FromMinutes(5))
            {
                failures.Add($"Pipeline__DeviceStateClockMargin must be from 00:00:01 to 00:05:00, found {options.DeviceStateClockMargin}.");
            }
    }
}
