using System.CommandLine;
using System.CommandLine.Parsing;
using System.Text.RegularExpressions;
using SensorPipeline.CommandLine;

namespace SensorPipeline.Stack;

/// <summary>What one run of the stack program was asked to do (each command reads the options it has).</summary>
internal sealed record StackRun(string? Data, int? Port, TimeSpan? Duration, int? Rate, InstanceCount? Instances)
{
    /// <summary>up: real Azure resources instead of the local emulators (null: none).</summary>
    public RealAzure? Azure { get; init; }

    /// <summary>chaos: minutes of load over the whole run.</summary>
    public double? Minutes { get; init; }

    /// <summary>chaos: only the faults whose names contain one of these.</summary>
    public IReadOnlyList<string> Faults { get; init; } = [];

    /// <summary>chaos: the random seed for injection points.</summary>
    public int? Seed { get; init; }
}

/// <summary>The stack program's commands (<c>demo</c>, <c>up</c>, <c>chaos</c>) and their options.</summary>
internal static partial class StackCommandLine
{
    /// <summary>The root command; each command runs <paramref name="run"/> with its name and what it was given.</summary>
    public static RootCommand Create(Func<string, StackRun, Task<int>> run)
    {
        var root = new RootCommand("The whole local pipeline: the Cosmos DB emulator, devhost and the handler it starts.");
        root.Subcommands.Add(Demo(run));
        root.Subcommands.Add(Up(run));
        root.Subcommands.Add(Chaos(run));
        return root;
    }

    private static Command Demo(Func<string, StackRun, Task<int>> run)
    {
        var (data, rate, instances) = (Data(), Rate("Readings per second (default 2500; 500 with --instances)."), Instances());
        var duration = Durations.Optional("--duration", $"How long loadgen sends ({Durations.Syntax}; default 40s).", TimeSpan.FromSeconds(1));
        var command = new Command("demo", "The whole chain locally: load, poison, a backlog episode, drain, verify, one table.").With(duration, rate, instances, data);
        command.SetAction(parse => run("demo", new StackRun(parse.GetValue(data), null, parse.GetValue(duration), Round(parse.GetValue(rate)), parse.GetValue(instances))));
        return command;
    }

    private static Command Up(Func<string, StackRun, Task<int>> run)
    {
        var (data, instances) = (Data(), Instances());
        var (eventHubs, storage, cosmos) = (AzureResources.EventHubs(), AzureResources.Storage(), AzureResources.Cosmos());
        var port = new Option<int>("--port") { Description = "devhost's loopback port (0: a free one).", DefaultValueFactory = _ => 7071 };
        port.Validators.Add(result => InRange(result, result.GetValueOrDefault<int>(), 0, 65535));
        var suffix = new Option<string>("--consumer-group-suffix")
        {
            Description = $"With --eventhubs: appended to each consumer group the app reads with (splitter-<suffix>, …), so a local run never shares the deployed app's groups; create them in the namespace first (default {RealAzure.DefaultConsumerGroupSuffix}).",
            DefaultValueFactory = _ => RealAzure.DefaultConsumerGroupSuffix,
        };
        suffix.Validators.Add(result =>
        {
            if (!ConsumerGroupSuffix().IsMatch(result.GetValueOrDefault<string>() ?? ""))
            {
                result.AddError("--consumer-group-suffix: 1 to 40 letters, digits, '.', '_' or '-', starting and ending with a letter or digit (Event Hubs' consumer group names).");
            }
        });
        var command = new Command("up", "Start the local stack and keep it running until Ctrl+C, or until devhost or the emulator dies.")
            .With(port, instances, data, eventHubs, storage, cosmos, suffix);
        command.Validators.Add(result =>
        {
            // Only given, well-formed values: an option whose value failed its own parse reports that error itself.
            bool Given(Option option) => result.GetResult(option) is { } given && !given.Errors.Any() && given.Tokens.Count > 0;
            if (Given(eventHubs) && !Given(storage))
            {
                result.AddError("--eventhubs needs --storage: the Functions host keeps ownership and checkpoints of a real namespace in a real Storage account (AzureWebJobsStorage), never in the local azurite.");
            }

            if (result.GetResult(suffix) is { Implicit: false } && !Given(eventHubs))
            {
                result.AddError("--consumer-group-suffix needs --eventhubs: the local emulator's consumer groups are the local app's alone.");
            }

            if (result.GetResult(instances)?.Tokens is [{ Value: "auto" }] && (Given(eventHubs) || Given(storage)))
            {
                result.AddError("--instances auto reads the backlog of the local emulator and azurite; with --eventhubs/--storage give a fixed count.");
            }
        });
        command.SetAction(parse =>
        {
            var azure = new RealAzure(parse.GetValue(eventHubs), parse.GetValue(storage), parse.GetValue(cosmos)) { ConsumerGroupSuffix = parse.GetValue(suffix)! };
            return run("up", new StackRun(parse.GetValue(data), parse.GetValue(port), null, null, parse.GetValue(instances))
            {
                Azure = azure is { EventHubs: null, Storage: null, Cosmos: null } ? null : azure,
            });
        });
        return command;
    }

    private static Command Chaos(Func<string, StackRun, Task<int>> run)
    {
        var (data, rate) = (Data(), Rate("Readings per second during every phase (default 600)."));
        var minutes = new Option<double>("--minutes") { Description = "Minutes of load over the whole run, 0.5 to 600.", DefaultValueFactory = _ => 10 };
        minutes.Validators.Add(result => InRange(result, result.GetValueOrDefault<double>(), 0.5, 600));
        var faults = new Option<string[]>("--faults") { Description = "Only the faults whose names contain one of these (comma-separated)." , CustomParser = r => [.. r.Tokens.SelectMany(t => t.Value.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))] };
        var seed = new Option<int?>("--seed") { Description = "The random seed for injection points (default: a new one, printed)." };
        seed.Validators.Add(result => InRange(result, result.GetValueOrDefault<int?>() ?? 0, 0, int.MaxValue));
        var command = new Command("chaos", "The fault matrix under load, each phase verified; exit 1 if anything was lost.").With(minutes, rate, faults, seed, data);
        command.SetAction(parse => run("chaos", new StackRun(parse.GetValue(data), null, null, Round(parse.GetValue(rate)), null)
        {
            Minutes = parse.GetValue(minutes), Faults = parse.GetValue(faults) ?? [], Seed = parse.GetValue(seed),
        }));
        return command;
    }

    private static Option<string?> Data() => new("--data")
    {
        Description = "The data directory (default: a new folder under .pipeline/, or .pipeline/up for up).",
        CustomParser = r => Path.GetFullPath(r.Tokens[0].Value),
    };

    private static Option<double?> Rate(string description) => Rates.Optional("--rate", description, maximum: 1_000_000);

    private static Option<InstanceCount?> Instances() => new("--instances")
    {
        Description = "Each function's Functions-host instances as separate processes: auto (the target-based scaler) or 1 to 32.",
        HelpName = "auto|N",
        CustomParser = r => r.Tokens[0].Value == "auto" ? InstanceCount.Auto
            : int.TryParse(r.Tokens[0].Value, NumberStyles.None, CultureInfo.InvariantCulture, out var n) && n is >= 1 and <= 32 ? new InstanceCount(n)
            : Error(r, $"--instances: '{r.Tokens[0].Value}' must be auto or a whole number from 1 to 32."),
    };

    private static int? Round(double? rate) => rate is { } r ? (int)Math.Max(1, Math.Round(r)) : null;

    private static void InRange(OptionResult result, double value, double min, double max)
    {
        if (value < min || value > max)
        {
            result.AddError(string.Create(CultureInfo.InvariantCulture, $"{result.Option.Name}: '{value}' must be from {min} to {max}."));
        }
    }

    private static InstanceCount? Error(ArgumentResult result, string message)
    {
        result.AddError(message);
        return null;
    }

    // Event Hubs consumer group names: letters, digits, '.', '_', '-', starting and ending with a letter or digit; a
    // suffix of at most 40 leaves room for the app's groups within the 50-character limit (RunConsumerGroups checks).
    [GeneratedRegex("^[A-Za-z0-9]([A-Za-z0-9._-]{0,38}[A-Za-z0-9])?$")]
    private static partial Regex ConsumerGroupSuffix();
}
