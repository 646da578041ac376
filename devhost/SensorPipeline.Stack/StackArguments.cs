namespace SensorPipeline.Stack;

/// <summary>The stack program's arguments: a command and a few options.</summary>
public sealed record StackArguments(string Command, string? Data, int? Port, TimeSpan? Duration, int? Rate)
{
    /// <summary>chaos: minutes of load over the whole run.</summary>
    public double? Minutes { get; init; }

    /// <summary>chaos: only the faults whose names contain one of these.</summary>
    public IReadOnlyList<string> Faults { get; init; } = [];

    /// <summary>chaos: the random seed for injection points.</summary>
    public int? Seed { get; init; }

    /// <summary>demo, up: Functions-host instances per function as separate processes — a number, or auto for the
    /// target-based scaler; null runs the one in-process host.</summary>
    public InstanceCount? Instances { get; init; }

    public static StackArguments Parse(IReadOnlyList<string> args)
    {
        ArgumentNullException.ThrowIfNull(args);
        if (args.Count == 0)
        {
            throw new ArgumentException("usage: stack demo|up|chaos [--data DIR] [--port N] [--duration 40s] [--rate N] [--instances auto|N] [--minutes N] [--faults a,b] [--seed N]");
        }

        string? data = null;
        int? port = null, rate = null;
        TimeSpan? duration = null;
        double? minutes = null;
        int? seed = null;
        string[] faults = [];
        InstanceCount? instances = null;
        for (var i = 1; i < args.Count; i++)
        {
            var value = i + 1 < args.Count ? args[i + 1] : throw new ArgumentException($"{args[i]} needs a value");
            switch (args[i])
            {
                case "--data": data = Path.GetFullPath(value); break;
                case "--port": port = ParseInt(args[i], value, 0, 65535); break;
                case "--rate": rate = ParseInt(args[i], value, 1, 1_000_000); break;
                case "--duration": duration = ParseDuration(args[i], value); break;
                case "--minutes":
                    minutes = double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out var m) && m is >= 0.5 and <= 600
                        ? m : throw new ArgumentException($"--minutes: '{value}' must be a number from 0.5 to 600");
                    break;
                case "--faults": faults = value.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries); break;
                case "--seed": seed = ParseInt(args[i], value, 0, int.MaxValue); break;
                case "--instances": instances = value == "auto" ? InstanceCount.Auto : new InstanceCount(ParseInt(args[i], value, 1, 32)); break;
                default: throw new ArgumentException($"unknown option {args[i]}");
            }

            i++;
        }

        return new StackArguments(args[0], data, port, duration, rate) { Minutes = minutes, Faults = faults, Seed = seed, Instances = instances };
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

/// <summary><c>--instances</c>: a fixed number of instances per function, or <see cref="Auto"/> (the target-based
/// scaler decides).</summary>
public sealed record InstanceCount(int? Fixed)
{
    public static InstanceCount Auto { get; } = new((int?)null);

    public bool IsAuto => Fixed is null;

    public override string ToString() => Fixed?.ToString(CultureInfo.InvariantCulture) ?? "auto";
}
