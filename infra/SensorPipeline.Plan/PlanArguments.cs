using System.Globalization;

namespace SensorPipeline.Plan;

/// <summary>The command line of <c>./pipeline plan</c>; a bad value fails with a message naming the option.</summary>
internal sealed record PlanArguments(
    double Rate,
    int ReadingsPerEvent,
    double? Devices,
    double RetentionDays,
    bool Reserved,
    bool Zones,
    bool Azd,
    string? EnvFile,
    string Region,
    string Command)
{
    public const string Usage =
        "usage: ./pipeline plan --rate N [--readings-per-event 200] [--devices D] [--retention 7d] [--reserved] [--zones] [--region eastus] [--azd] [--env-file FILE]";

    public static PlanArguments Parse(IReadOnlyList<string> args)
    {
        double? rate = null, devices = null;
        var perEvent = 200;
        double retention = 7;
        bool reserved = false, zones = false, azd = false;
        string? envFile = null;
        var region = "eastus";
        for (var i = 0; i < args.Count; i++)
        {
            string Next() => i + 1 < args.Count ? args[++i] : throw new ArgumentException($"{args[i]} needs a value. {Usage}");
            switch (args[i])
            {
                case "--rate": rate = Positive("--rate", Next()); break;
                case "--readings-per-event": perEvent = (int)Math.Clamp(Positive("--readings-per-event", Next()), 1, 9000); break;
                case "--devices": devices = Positive("--devices", Next()); break;
                case "--retention": retention = Days(Next()); break;
                case "--reserved": reserved = true; break;
                case "--zones": zones = true; break;
                case "--azd": azd = true; break;
                case "--env-file": envFile = Next(); break;
                case "--region": region = Next(); break;
                default: throw new ArgumentException($"unknown option '{args[i]}'. {Usage}");
            }
        }

        if (rate is null)
        {
            throw new ArgumentException($"--rate is required (readings per second). {Usage}");
        }

        return new PlanArguments(rate.Value, perEvent, devices, retention, reserved, zones, azd, envFile, region, "./pipeline plan " + string.Join(' ', args));
    }

    private static double Positive(string option, string text) =>
        double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var v) && v >= 1 && double.IsFinite(v)
            ? v
            : throw new ArgumentException($"{option} must be a number of at least 1, found '{text}'.");

    /// <summary>"7d", "36h" or a plain number of days; 0 keeps readings forever (TTL -1).</summary>
    private static double Days(string text)
    {
        var unit = text.EndsWith('h') ? 1 / 24.0 : 1;
        var number = text.TrimEnd('d', 'h');
        return double.TryParse(number, NumberStyles.Float, CultureInfo.InvariantCulture, out var v) && v >= 0 && double.IsFinite(v)
            ? v * unit
            : throw new ArgumentException($"--retention must be like 7d, 36h or 0 (keep forever), found '{text}'.");
    }
}
