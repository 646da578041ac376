using System.Globalization;

namespace SensorPipeline.Stack;

/// <summary>The stack program's arguments: a command and a few options.</summary>
public sealed record StackArguments(string Command, string? Data, int? Port, TimeSpan? Duration, int? Rate)
{
    public static StackArguments Parse(IReadOnlyList<string> args)
    {
        ArgumentNullException.ThrowIfNull(args);
        if (args.Count == 0)
        {
            throw new ArgumentException("usage: stack demo|up [--data DIR] [--port N] [--duration 40s] [--rate N]");
        }

        string? data = null;
        int? port = null, rate = null;
        TimeSpan? duration = null;
        for (var i = 1; i < args.Count; i++)
        {
            var value = i + 1 < args.Count ? args[i + 1] : throw new ArgumentException($"{args[i]} needs a value");
            switch (args[i])
            {
                case "--data": data = Path.GetFullPath(value); break;
                case "--port": port = ParseInt(args[i], value, 0, 65535); break;
                case "--rate": rate = ParseInt(args[i], value, 1, 1_000_000); break;
                case "--duration": duration = ParseDuration(args[i], value); break;
                default: throw new ArgumentException($"unknown option {args[i]}");
            }

            i++;
        }

        return new StackArguments(args[0], data, port, duration, rate);
    }

    /// <summary>"40s", "2m", "500ms" or a TimeSpan ("00:01:00").</summary>
    public static TimeSpan ParseDuration(string option, string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        (string Suffix, double Scale)[] units = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)];
        foreach (var (suffix, scale) in units)
        {
            if (text.EndsWith(suffix, StringComparison.Ordinal) && double.TryParse(text[..^suffix.Length], NumberStyles.Float, CultureInfo.InvariantCulture, out var number) && number > 0)
            {
                return TimeSpan.FromSeconds(number * scale);
            }
        }

        return TimeSpan.TryParse(text, CultureInfo.InvariantCulture, out var span) && span > TimeSpan.Zero
            ? span
            : throw new ArgumentException($"{option}: '{text}' is not a duration (40s, 2m, 00:01:00)");
    }

    private static int ParseInt(string option, string text, int min, int max) =>
        int.TryParse(text, NumberStyles.Integer, CultureInfo.InvariantCulture, out var value) && value >= min && value <= max
            ? value
            : throw new ArgumentException($"{option}: '{text}' must be a whole number from {min} to {max}");
}
