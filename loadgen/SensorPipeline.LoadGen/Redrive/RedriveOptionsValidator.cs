using Microsoft.Extensions.Options;

namespace SensorPipeline.LoadGen.Redrive;

/// <summary>Checks <see cref="RedriveOptions"/> once at start; each message names the option.</summary>
internal sealed class RedriveOptionsValidator : IValidateOptions<RedriveOptions>
{
    public ValidateOptionsResult Validate(string? name, RedriveOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var failures = new List<string>();
        if (options.Connection is null && options.Namespace is null)
        {
            failures.Add("--connection (or env EventHubConnection) or --namespace is required: where to re-send the events.");
        }

        if (options.CosmosEndpoint is null)
        {
            failures.Add("--cosmos-endpoint (or env Cosmos__AccountEndpoint) is required: where the dead letters are.");
        }

        if (!options.HasSelector)
        {
            failures.Add("choose the dead letters: --reason, --since, --until or --id (at least one).");
        }

        if (options.Since is { } since && options.Until is { } until && since >= until)
        {
            failures.Add($"--since ({since:O}) must be before --until ({until:O}).");
        }

        foreach (var (option, hub) in new[] { ("--ingestion-hub", options.IngestionHub), ("--weather-hub", options.WeatherHub), ("--seismic-hub", options.SeismicHub) })
        {
            if (string.IsNullOrWhiteSpace(hub))
            {
                failures.Add($"{option} must not be empty.");
            }
        }

        if (options.MaxAttempts is < 1 or > 100)
        {
            failures.Add($"--max-attempts must be from 1 to 100, got {options.MaxAttempts}.");
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }
}
