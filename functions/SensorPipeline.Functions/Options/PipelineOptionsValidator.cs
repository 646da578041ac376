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

        Within(failures, "Pipeline__WriteParallelism", options.WriteParallelism, 1, 256);
        Within(failures, "Pipeline__BulkMinimumDocuments", options.BulkMinimumDocuments, 1, 1_000_000);
        if (!Enum.IsDefined(options.DeviceWrite))
        {
            failures.Add($"Pipeline__DeviceWrite must be Patch or ReadReplace, found {options.DeviceWrite}.");
        }

        Within(failures, "Pipeline__TransientRetryCount", options.TransientRetryCount, 0, 20);
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

        Within(failures, "Pipeline__IsolateAfterAttempts", options.IsolateAfterAttempts, 2, 100);
        Within(failures, "Pipeline__SystemicAfterWhollyFailedBatches", options.SystemicAfterWhollyFailedBatches, 2, 100);

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }

    /// <summary>A whole-number setting outside [<paramref name="min"/>, <paramref name="max"/>] adds its failure, naming it.</summary>
    private static void Within(List<string> failures, string setting, int value, int min, int max)
    {
        if (value < min || value > max)
        {
            failures.Add(string.Create(System.Globalization.CultureInfo.InvariantCulture, $"{setting} must be from {min} to {max}, found {value}."));
        }
    }
}
