using Microsoft.Extensions.Options;

namespace SensorPipeline.DevHost.Explorer;

/// <summary>The range checks of <see cref="ExplorerOptions"/>; each message names the key.</summary>
public sealed class ExplorerOptionsValidator : IValidateOptions<ExplorerOptions>
{
    private const string Prefix = ExplorerOptions.SectionName + ":";
    private const long MiB = 1024 * 1024;

    public ValidateOptionsResult Validate(string? name, ExplorerOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var failures = new List<string>();
        Range(failures, nameof(options.MaxPeekEvents), options.MaxPeekEvents, 1, 1000);
        Range(failures, nameof(options.MaxPeekBytes), options.MaxPeekBytes, MiB, 64 * MiB);
        Range(failures, nameof(options.MaxQueryItems), options.MaxQueryItems, 1, 1000);
        Range(failures, nameof(options.MaxQueryBytes), options.MaxQueryBytes, 64 * 1024, 64 * MiB);
        if (options.MaxTime < TimeSpan.FromMilliseconds(100) || options.MaxTime > TimeSpan.FromMinutes(1))
        {
            failures.Add($"{Prefix}{nameof(options.MaxTime)} must be from 00:00:00.100 to 00:01:00, got {options.MaxTime}.");
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }

    private static void Range(List<string> failures, string key, long value, long min, long max)
    {
        if (value < min || value > max)
        {
            failures.Add($"{Prefix}{key} must be from {min} to {max}, got {value}.");
        }
    }
}
