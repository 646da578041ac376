using Microsoft.Extensions.Options;

namespace SensorPipeline.CosmosEmulator.Hosting;

/// <summary>All range checks of <see cref="CosmosEmulatorOptions"/> in one place; messages name the configuration key.</summary>
public sealed class CosmosEmulatorOptionsValidator : IValidateOptions<CosmosEmulatorOptions>
{
    private const string Prefix = CosmosEmulatorOptions.SectionName + ":";

    public ValidateOptionsResult Validate(string? name, CosmosEmulatorOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var failures = new List<string>();
        Span<byte> key = stackalloc byte[256];
        if (string.IsNullOrEmpty(options.AccountKey) || !Convert.TryFromBase64String(options.AccountKey, key, out var keyLength) || keyLength < 16)
        {
            failures.Add($"{Prefix}{nameof(options.AccountKey)} must be base64 of at least 16 bytes (the emulator's well-known key by default).");
        }

        if (!Enum.IsDefined(options.Durability))
        {
            failures.Add($"{Prefix}{nameof(options.Durability)} must be Always, Interval or None.");
        }

        if (options.FlushInterval < TimeSpan.FromMilliseconds(1) || options.FlushInterval > TimeSpan.FromMinutes(1))
        {
            failures.Add($"{Prefix}{nameof(options.FlushInterval)} must be from 00:00:00.001 to 00:01:00, got {options.FlushInterval}.");
        }

        if (options.CompactionThresholdBytes < 1024 * 1024)
        {
            failures.Add($"{Prefix}{nameof(options.CompactionThresholdBytes)} must be at least 1048576 (1 MiB), got {options.CompactionThresholdBytes}.");
        }

        if (!(options.ThroughputPerContainer >= 0 && options.ThroughputPerContainer <= 1_000_000))
        {
            failures.Add($"{Prefix}{nameof(options.ThroughputPerContainer)} must be from 0 (unlimited) to 1000000 RU/s, got {options.ThroughputPerContainer}.");
        }

        if (options.TimeToLivePurgeInterval < TimeSpan.FromMilliseconds(100) || options.TimeToLivePurgeInterval > TimeSpan.FromHours(1))
        {
            failures.Add($"{Prefix}{nameof(options.TimeToLivePurgeInterval)} must be from 00:00:00.100 to 01:00:00, got {options.TimeToLivePurgeInterval}.");
        }

        if (options.PartitionKeyRanges is < 1 or > 1024)
        {
            failures.Add($"{Prefix}{nameof(options.PartitionKeyRanges)} must be from 1 to 1024, got {options.PartitionKeyRanges}.");
        }

        if (options.DefaultPageSize is < 1 or > 10_000)
        {
            failures.Add($"{Prefix}{nameof(options.DefaultPageSize)} must be from 1 to 10000, got {options.DefaultPageSize}.");
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }
}
