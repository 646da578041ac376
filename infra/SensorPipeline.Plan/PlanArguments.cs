using System.Globalization;
using SensorPipeline.Plan.Model;

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
    string Command,
    Expiry Expiry = Expiry.Ttl,
    double WindowDays = 1,
    bool Private = false)
{
    public const string Usage =
        "usage: ./pipeline plan --rate N [--readings-per-event 200] [--devices D] [--retention 7d] [--expiry ttl|windows] [--window 1d] [--reserved] [--zones] [--private] [--region eastus] [--azd] [--env-file FILE]";

    public static PlanArguments Parse(IReadOnlyList<string> args)
    {
        double? rate = null, devices = null;
        var perEvent = 200;
        double retention = 7, window = 1;
        var expiry = Expiry.Ttl;
        bool reserved = false, zones = false, azd = false, isPrivate = false;
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
                case "--expiry": expiry = ExpiryOf(Next()); break;
                case "--window": window = Days(Next()) is > 0 and var w ? w : throw new ArgumentException($"--window must be more than 0 days. {Usage}"); break;
                case "--reserved": reserved = true; break;
                case "--zones": zones = true; break;
                case "--private": isPrivate = true; break;
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

        if (expiry == Expiry.Windows && (azd || envFile is not null))
        {
            throw new ArgumentException("--expiry windows is plan-only: the template deploys one readings container with TTL (docs/cost.md, \"Expiry\", says why); --azd and --env-file take --expiry ttl.");
        }

        return new PlanArguments(rate.Value, perEvent, devices, retention, reserved, zones, azd, envFile, region, "./pipeline plan " + string.Join(' ', args), expiry, window, isPrivate);
    }

    private static Expiry ExpiryOf(string text) => text switch
    {
        "ttl" => Expiry.Ttl,
        "windows" => Expiry.Windows,
        _ => throw new ArgumentException($"--expiry must be ttl or windows, found '{text}'."),
    };

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
