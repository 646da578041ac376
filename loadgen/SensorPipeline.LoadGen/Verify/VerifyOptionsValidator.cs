using Microsoft.Extensions.Options;
using SensorPipeline.LoadGen.Cli;
using SensorPipeline.LoadGen.Store;

namespace SensorPipeline.LoadGen.Verify;

/// <summary>Every check of <see cref="VerifyOptions"/>; messages name the option.</summary>
internal sealed class VerifyOptionsValidator : IValidateOptions<VerifyOptions>
{
    public ValidateOptionsResult Validate(string? name, VerifyOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var failures = new List<string>();
        if (string.IsNullOrWhiteSpace(options.Ledger))
        {
            failures.Add("--ledger is required.");
        }
        else if (!File.Exists(options.Ledger))
        {
            failures.Add($"--ledger: the file '{options.Ledger}' does not exist.");
        }

        CosmosAccountValidation.Check(options, failures, "where the run's readings are");
        OptionChecks.NotEmpty(failures, ("--readings-container", options.ReadingsContainer), ("--archive-container", options.ArchiveContainer),
            ("--devices-container", options.DevicesContainer));

        if (options.Concurrency is < 1 or > 512)
        {
            failures.Add("--concurrency must be 1..512.");
        }

        if (options.ProgressInterval < TimeSpan.FromMilliseconds(100))
        {
            failures.Add("--progress-interval must be at least 100ms.");
        }

        if (options.MaxAge is { } maxAge && maxAge <= TimeSpan.Zero)
        {
            failures.Add("--max-age must be more than zero.");
        }

        if (options.Episodes.Count > 0 && options.MaxAge is null)
        {
            failures.Add("--episode needs --max-age: an episode only explains stale readings judged against the max age.");
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }
}
