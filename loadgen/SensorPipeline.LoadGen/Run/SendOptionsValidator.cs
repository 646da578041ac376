using Microsoft.Extensions.Options;
using SensorPipeline.LoadGen.Cli;
using SensorPipeline.LoadGen.Sending;

namespace SensorPipeline.LoadGen.Run;

/// <summary>Every check of <see cref="SendOptions"/> in one place; messages name the command-line option.</summary>
internal sealed class SendOptionsValidator : IValidateOptions<SendOptions>
{
    /// <summary>Smallest oversize reading: the largest envelope a forwarded event can carry (983,040 bytes), which
    /// a reading of that size cannot fit with its envelope's fields.</summary>
    public const int MinOversizeBytes = Core.Splitting.EnvelopeBudget.MaxEnvelopeBytes;

    /// <summary>Event Hubs' 1 MB event limit, less room for the request's framing.</summary>
    public const int MaxOversizeBytes = 1_000_000;

    /// <summary>The largest --clock-skew either way: far enough to test any freshness or skew rule.</summary>
    public static readonly TimeSpan MaxClockSkew = TimeSpan.FromDays(1);

    public ValidateOptionsResult Validate(string? name, SendOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var failures = new List<string>();
        EventHubsTargetValidation.Check(options.Connection, options.Namespace, failures, "where to send the readings");
        OptionChecks.NotEmpty(failures, ("--hub", options.Hub));
        var kinds = string.Join(", ", options.Devices.Keys.Select(static k => "--" + k));
        Check(failures, options.Devices.Values.All(static n => n >= 0), $"{kinds} must each be 0 or more.");
        Check(failures, options.Devices.Values.Sum(static n => (long)n) >= 1, $"{kinds} must add up to at least 1.");
        Check(failures, options.ReadingsPerEvent is >= 1 and <= 10_000, "--readings-per-event must be 1..10000.");
        Check(failures, options.Rate is null || (options.Rate > 0 && double.IsFinite(options.Rate.Value)), "--rate must be a positive number of readings per second.");
        Check(failures, options.Duration is null || options.Duration > TimeSpan.Zero, "--duration must be positive.");
        Check(failures, options.Count is null || options.Count > 0, "--count must be positive.");
        Check(failures, options.Concurrency is >= 1 and <= 1024, "--concurrency must be 1..1024.");
        Check(failures, options.MaxAttempts is >= 1 and <= 100, "--max-attempts must be 1..100.");
        Check(failures, options.BaseBackoff > TimeSpan.Zero && options.MaxBackoff >= options.BaseBackoff, "--base-backoff must be positive and not above --max-backoff.");
        Check(failures, options.AttemptTimeout > TimeSpan.Zero, "--attempt-timeout must be positive.");
        Check(failures, options.Poison >= 0 && options.Oversize >= 0 && options.DuplicateEvery >= 0, "--poison, --oversize and --duplicate-every must be 0 or more.");
        Check(failures, options.Truncated >= 0 && options.OutOfRange >= 0 && options.Forged >= 0 && options.MalformedSends >= 0,
            "--truncated, --out-of-range, --forged and --malformed-sends must be 0 or more.");
        Check(failures, options.Forged == 0 || !string.IsNullOrWhiteSpace(options.ForgedHub), "--forged-hub must not be empty.");
        Check(failures, options.ClockSkew.Duration() <= MaxClockSkew, "--clock-skew must be within ±1 day (e.g. 2m, -10m).");
        Check(failures, options.OversizeBytes is >= MinOversizeBytes and <= MaxOversizeBytes, $"--oversize-bytes must be {MinOversizeBytes}..{MaxOversizeBytes}.");
        Check(failures, options.InjectEvery >= 1, "--inject-every must be at least 1.");
        Check(failures, options.ProgressInterval >= TimeSpan.FromMilliseconds(100), "--progress-interval must be at least 100ms.");
        Check(failures, options.Grace >= TimeSpan.Zero, "--grace must not be negative.");
        if (options.PauseFunctions.Count > 0)
        {
            Check(failures, options.PauseFor > TimeSpan.Zero, "--pause-function needs a positive --pause-for.");
            Check(failures, options.PauseAfter >= TimeSpan.Zero, "--pause-after must not be negative.");
            Check(failures, options.PauseRoute.Contains("{name}", StringComparison.Ordinal) && options.ResumeRoute.Contains("{name}", StringComparison.Ordinal),
                "--pause-route and --resume-route must contain {name}.");
            Check(failures, options.DevHost is not null || IsEmulator(options.Connection),
                "--pause-function needs --devhost (or an emulator connection string, whose endpoint is devhost).");
        }
        else
        {
            Check(failures, options.PauseFor is null, "--pause-for needs --pause-function.");
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }

    private static bool IsEmulator(string? connection) =>
        connection is not null && connection.Contains("UseDevelopmentEmulator=true", StringComparison.OrdinalIgnoreCase);

    private static void Check(List<string> failures, bool ok, string message)
    {
        if (!ok)
        {
            failures.Add(message);
        }
    }
}
