namespace SensorPipeline.Functions.Options;

/// <summary>Every range check for <see cref="PipelineOptions"/>, run once at start-up; messages name the setting.</summary>
internal sealed class PipelineOptionsValidator : SettingsValidator<PipelineOptions>
{
    protected override void Check(PipelineOptions options, List<string> failures)
    {
        if (options.MaxAge <= TimeSpan.Zero)
        {
            failures.Add($"Pipeline__MaxAge must be a positive duration like 00:05:00, found {options.MaxAge}.");
        }

        Within(failures, "Pipeline__MaxClockSkew", options.MaxClockSkew, TimeSpan.Zero, TimeSpan.FromDays(1));
        Within(failures, "Pipeline__WriteParallelism", options.WriteParallelism, 1, 256);
        Within(failures, "Pipeline__BulkMinimumDocuments", options.BulkMinimumDocuments, 1, 1_000_000);
        Within(failures, "Pipeline__TransientRetryCount", options.TransientRetryCount, 0, 20);
        Within(failures, "Pipeline__TransientRetryBaseDelay", options.TransientRetryBaseDelay, TimeSpan.Zero, TimeSpan.FromMinutes(1));
        if (options.TransientRetryMaxDelay < options.TransientRetryBaseDelay || options.TransientRetryMaxDelay > TimeSpan.FromMinutes(1))
        {
            failures.Add($"Pipeline__TransientRetryMaxDelay must be from Pipeline__TransientRetryBaseDelay ({options.TransientRetryBaseDelay}) to 00:01:00, found {options.TransientRetryMaxDelay}.");
        }

        Within(failures, "Pipeline__RedeliveryWindow", options.RedeliveryWindow, TimeSpan.Zero, TimeSpan.FromHours(1));

        // The device-state settings: W, the mark's expiry, the recovery's clock margin.
        Within(failures, "Pipeline__DeviceStateLag", options.DeviceStateLag, TimeSpan.FromMilliseconds(50), TimeSpan.FromSeconds(10));
        Within(failures, "Pipeline__DeviceStateMarkExpiry", options.DeviceStateMarkExpiry, TimeSpan.FromSeconds(2), TimeSpan.FromMinutes(10));
        Within(failures, "Pipeline__DeviceStateClockMargin", options.DeviceStateClockMargin, TimeSpan.FromSeconds(1), TimeSpan.FromMinutes(5));
        Within(failures, "Pipeline__IsolateAfterAttempts", options.IsolateAfterAttempts, 2, 100);
        Within(failures, "Pipeline__SystemicAfterWhollyFailedBatches", options.SystemicAfterWhollyFailedBatches, 2, 100);
    }
}
