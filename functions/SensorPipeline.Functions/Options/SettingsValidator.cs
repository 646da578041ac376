using System.Globalization;
using Microsoft.Extensions.Options;

namespace SensorPipeline.Functions.Options;

/// <summary>
/// What every options validator of the Function App shares: each check adds one message naming its app setting, and
/// start-up reports all of them together, so a single restart shows every bad setting. The range rules here word their
/// messages alike, whichever setting they check.
/// </summary>
internal abstract class SettingsValidator<TOptions> : IValidateOptions<TOptions>
    where TOptions : class
{
    public ValidateOptionsResult Validate(string? name, TOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var failures = new List<string>();
        Check(options, failures);
        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }

    /// <summary>Adds one message to <paramref name="failures"/> for each setting of <paramref name="options"/> that is wrong.</summary>
    protected abstract void Check(TOptions options, List<string> failures);

    /// <summary>A whole-number setting outside [<paramref name="min"/>, <paramref name="max"/>] adds its failure, naming it.</summary>
    protected static void Within(List<string> failures, string setting, int value, int min, int max)
    {
        if (value < min || value > max)
        {
            failures.Add(string.Create(CultureInfo.InvariantCulture, $"{setting} must be from {min} to {max}, found {value}."));
        }
    }

    /// <summary>A duration setting outside [<paramref name="min"/>, <paramref name="max"/>] adds its failure, naming it.</summary>
    protected static void Within(List<string> failures, string setting, TimeSpan value, TimeSpan min, TimeSpan max)
    {
        if (value < min || value > max)
        {
            failures.Add(string.Create(CultureInfo.InvariantCulture, $"{setting} must be from {Bound(min)} to {Bound(max)}, found {value}."));
        }
    }

    /// <summary>A bound as a setting would be written: <c>00:05:00</c>, <c>00:00:00.100</c> (no trailing sub-millisecond zeros).</summary>
    private static string Bound(TimeSpan bound)
    {
        var text = bound.ToString("c", CultureInfo.InvariantCulture);
        var wholeMilliseconds = bound.Ticks % TimeSpan.TicksPerSecond != 0 && bound.Ticks % TimeSpan.TicksPerMillisecond == 0;
        return wholeMilliseconds ? text[..^4] : text;
    }
}
