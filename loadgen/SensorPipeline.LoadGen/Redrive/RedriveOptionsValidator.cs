using Microsoft.Extensions.Options;
using SensorPipeline.LoadGen.Cli;
using SensorPipeline.LoadGen.Sending;
using SensorPipeline.LoadGen.Store;

namespace SensorPipeline.LoadGen.Redrive;

/// <summary>Checks <see cref="RedriveOptions"/> once at start; each message names the option.</summary>
internal sealed class RedriveOptionsValidator : IValidateOptions<RedriveOptions>
{
    public ValidateOptionsResult Validate(string? name, RedriveOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var failures = new List<string>();
        EventHubsTargetValidation.Check(options.Connection, options.Namespace, failures, "where to re-send the events");
        CosmosAccountValidation.Check(options, failures, "where the dead letters are");
        if (!options.ToSelection().HasSelector)
        {
            failures.Add("choose the dead letters: --reason, --since, --until or --id (at least one).");
        }

        if (options.Since is { } since && options.Until is { } until && since >= until)
        {
            failures.Add($"--since ({since:O}) must be before --until ({until:O}).");
        }

        OptionChecks.NotEmpty(failures, [("--ingestion-hub", options.IngestionHub), .. options.KindHubs.Select(static h => ($"--{h.Key}-hub", h.Value))]);
        if (options.MaxAttempts is < 1 or > 100)
        {
            failures.Add($"--max-attempts must be from 1 to 100, got {options.MaxAttempts}.");
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }
}
