using System.CommandLine;
using System.CommandLine.Parsing;
using System.Globalization;
using SensorPipeline.CommandLine;
using SensorPipeline.Plan.Model;

namespace SensorPipeline.Plan;

/// <summary>What <c>./pipeline plan</c> was asked (<see cref="Command"/> reads it from the command line).</summary>
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
    /// <summary>The plan's command; its action runs <paramref name="run"/>. A bad value is a usage error naming the option.</summary>
    public static RootCommand Create(Func<PlanArguments, int> run, IReadOnlyList<string> args)
    {
        var rate = new Option<double>("--rate") { Description = $"Readings per second to plan for ({Rates.Syntax}).", Required = true, HelpName = "rate", CustomParser = r => Rates.Parse(r, double.MaxValue) };
        var perEvent = new Option<int>("--readings-per-event") { Description = "Readings per ingestion event (1 to 9000).", DefaultValueFactory = _ => 200 };
        perEvent.Validators.Add(r => AtLeastOne(r, r.GetValueOrDefault<int>()));
        var devices = new Option<double?>("--devices") { Description = "Devices sending (at least 1; default: one per reading per second)." };
        devices.Validators.Add(r => AtLeastOne(r, r.GetValueOrDefault<double?>() ?? 1));
        var retention = Days("--retention", "How long readings are kept (7d, 36h; 0 keeps them forever).", 7);
        var expiry = new Option<Expiry>("--expiry") { Description = "How readings expire: ttl (per-document TTL, deployed) or windows (a container per window, plan-only).", DefaultValueFactory = _ => Expiry.Ttl, HelpName = "ttl|windows" };
        var window = Days("--window", "With --expiry windows: one container's span (more than 0).", 1, aboveZero: true);
        var reserved = new Option<bool>("--reserved") { Description = "Price Cosmos DB throughput with reserved capacity." };
        var zones = new Option<bool>("--zones") { Description = "Zone-redundant Event Hubs and Cosmos DB." };
        var isPrivate = new Option<bool>("--private") { Description = "The private network profile: a VNet, private endpoints and DNS zones for every data plane, public access off." };
        var azd = new Option<bool>("--azd") { Description = "Write the settings into .azure/<env>/.env for `azd up`." };
        var envFile = new Option<string?>("--env-file") { Description = "Write the settings into this file." };
        var region = new Option<string>("--region") { Description = "The price file's region (infra/prices/<region>.json).", DefaultValueFactory = _ => "eastus" };
        var root = new RootCommand("Every capacity setting for a rate, with demand, deployed, headroom and $/h per component.")
            .With(rate, perEvent, devices, retention, expiry, window, reserved, zones, isPrivate, region, azd, envFile);
        root.SetAction(parse => run(new PlanArguments(parse.GetValue(rate), Math.Clamp(parse.GetValue(perEvent), 1, 9000), parse.GetValue(devices),
            parse.GetValue(retention), parse.GetValue(reserved), parse.GetValue(zones), parse.GetValue(azd), parse.GetValue(envFile), parse.GetValue(region)!,
            "./pipeline plan " + string.Join(' ', args), parse.GetValue(expiry), parse.GetValue(window), parse.GetValue(isPrivate))));
        return root;
    }

    /// <summary>A span in days: a duration (7d, 36h), or a plain number of days (the plan's own older form; 0 = forever).</summary>
    private static Option<double> Days(string name, string description, double defaultDays, bool aboveZero = false) => new(name)
    {
        Description = description,
        DefaultValueFactory = _ => defaultDays,
        HelpName = "duration",
        CustomParser = result =>
        {
            var text = result.Tokens[0].Value;
            var days = double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var number) && number >= 0 && double.IsFinite(number) ? number
                : Durations.TryParse(text, out var span) ? span.TotalDays
                : double.NaN;
            if (double.IsNaN(days))
            {
                result.AddError($"{name}: '{text}' is not a duration (7d, 36h, or a number of days; 0 keeps forever).");
            }
            else if (aboveZero && days <= 0)
            {
                result.AddError($"{name} must be more than 0 days.");
            }

            return days;
        },
    };

    private static void AtLeastOne(OptionResult result, double value)
    {
        if (value < 1)
        {
            result.AddError(string.Create(CultureInfo.InvariantCulture, $"{result.Option.Name} must be a number of at least 1, found '{value}'."));
        }
    }
}
