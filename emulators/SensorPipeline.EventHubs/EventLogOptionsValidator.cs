using Microsoft.Extensions.Options;

namespace SensorPipeline.EventHubs;

/// <summary>All range checks of <see cref="EventLogOptions"/> in one place; messages name the configuration key.</summary>
public sealed class EventLogOptionsValidator : IValidateOptions<EventLogOptions>
{
    private const string Prefix = EventLogOptions.SectionName + ":";

    public ValidateOptionsResult Validate(string? name, EventLogOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var failures = new List<string>();
        if (!Enum.IsDefined(options.Durability))
        {
            failures.Add($"{Prefix}{nameof(options.Durability)} must be Always, Interval or None.");
        }

        if (options.FlushInterval < TimeSpan.FromMilliseconds(1) || options.FlushInterval > TimeSpan.FromMinutes(1))
        {
            failures.Add($"{Prefix}{nameof(options.FlushInterval)} must be from 00:00:00.001 to 00:01:00, got {options.FlushInterval}.");
        }

        if (options.SegmentSizeBytes < 64 * 1024 || options.SegmentSizeBytes > 1024L * 1024 * 1024)
        {
            failures.Add($"{Prefix}{nameof(options.SegmentSizeBytes)} must be from 65536 (64 KiB) to 1073741824 (1 GiB), got {options.SegmentSizeBytes}.");
        }

        if (options.RetentionPeriod < TimeSpan.FromSeconds(1))
        {
            failures.Add($"{Prefix}{nameof(options.RetentionPeriod)} must be at least 00:00:01, got {options.RetentionPeriod}.");
        }

        if (options.RetentionMaxBytesPerPartition < 2 * options.SegmentSizeBytes)
        {
            failures.Add($"{Prefix}{nameof(options.RetentionMaxBytesPerPartition)} must be at least 2 × {nameof(options.SegmentSizeBytes)} ({2 * options.SegmentSizeBytes}), got {options.RetentionMaxBytesPerPartition}.");
        }

        if (options.CacheBytesPerPartition < 0 || options.CacheBytesPerPartition > 1024L * 1024 * 1024)
        {
            failures.Add($"{Prefix}{nameof(options.CacheBytesPerPartition)} must be from 0 to 1073741824 (1 GiB), got {options.CacheBytesPerPartition}.");
        }

        if (options.RetentionCheckInterval < TimeSpan.FromSeconds(1))
        {
            failures.Add($"{Prefix}{nameof(options.RetentionCheckInterval)} must be at least 00:00:01, got {options.RetentionCheckInterval}.");
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }
}
