using System.CommandLine;
using System.CommandLine.Parsing;
using SensorPipeline.CommandLine;
using SensorPipeline.DevHost.Instances;

namespace SensorPipeline.DevHost;

/// <summary>devhost's commands: the root runs devhost (Event Hubs emulator and Functions host), <c>instance</c> one
/// Functions-host instance against another devhost's hubs, <c>status</c> a running devhost's status as tables.</summary>
public static class DevHostCommandLine
{
    /// <summary>The root command; the actions run <paramref name="run"/>, <paramref name="instance"/> and
    /// <paramref name="status"/>.</summary>
    public static RootCommand Create(Func<DevHostArguments, Task<int>> run, Func<InstanceArguments, Task<int>> instance, Func<Uri, Task<int>> status)
    {
        var (appRoot, data, hubs, port, settings) = (AppRoot(), Data(), Hubs(), Ports.Option(DevHostArguments.DefaultPort), Settings.Option());
        var root = new RootCommand("devhost: the local Event Hubs emulator (REST and AMQP) and Functions host, which starts the custom handler.")
            .With(appRoot, data, port, hubs, settings);
        root.SetAction(parse =>
        {
            var folder = parse.GetRequiredValue(appRoot);
            return run(new DevHostArguments(folder, parse.GetRequiredValue(data), parse.GetValue(port),
                parse.GetValue(hubs) ?? Path.Combine(folder, "eventhubs.emulator.json"), parse.GetValue(settings)!));
        });
        root.Subcommands.Add(Instance(instance));
        root.Subcommands.Add(Status(status));
        return root;
    }

    private static Command Instance(Func<InstanceArguments, Task<int>> instance)
    {
        var (appRoot, data, port, settings) = (AppRoot(), Data(), Ports.Option(0), Settings.Option());
        var devHost = new Option<Uri>("--devhost")
        {
            Description = "The devhost serving the hubs, a loopback URL like http://127.0.0.1:7071.",
            Required = true,
            CustomParser = LoopbackUrl,
        };
        var id = new Option<string>("--instance-id") { Description = "The instance's owner id in ownership records.", Required = true };
        var functions = new Option<string>("--function") { Description = "The functions it runs, comma-separated (default: all).", DefaultValueFactory = _ => string.Empty };
        var command = new Command("instance", "One Functions-host instance in its own process against a running devhost's hubs.")
            .With(devHost, appRoot, data, id, functions, port, settings);
        command.SetAction(parse =>
        {
            var folder = parse.GetRequiredValue(appRoot);
            var host = new DevHostArguments(folder, parse.GetRequiredValue(data), parse.GetValue(port), Path.Combine(folder, "eventhubs.emulator.json"), parse.GetValue(settings)!);
            return instance(new InstanceArguments(parse.GetRequiredValue(devHost), host, parse.GetRequiredValue(id), parse.GetValue(functions)!));
        });
        return command;
    }

    private static Command Status(Func<Uri, Task<int>> status)
    {
        var url = new Option<Uri>("--url")
        {
            Description = "The running devhost.",
            DefaultValueFactory = _ => new Uri($"http://127.0.0.1:{DevHostArguments.DefaultPort}/"),
            CustomParser = LoopbackUrl,
        };
        var command = new Command("status", "A running devhost's hubs, partitions, handler, invocations and checkpoints, as tables.").With(url);
        command.SetAction(parse => status(parse.GetRequiredValue(url)));
        return command;
    }

    /// <summary><c>--app-root</c>: an existing directory, as its full path.</summary>
    private static Option<string> AppRoot() => new("--app-root")
    {
        Description = "The function app's folder (host.json, and eventhubs.emulator.json unless --hubs names another).",
        Required = true,
        CustomParser = result =>
        {
            var folder = result.Tokens[0].Value;
            if (!Directory.Exists(folder))
            {
                result.AddError($"--app-root: the directory '{folder}' does not exist.");
            }

            return Path.GetFullPath(folder);
        },
    };

    private static Option<string> Data() => new("--data")
    {
        Description = "Where devhost keeps its state (the event log under eventhubs/, checkpoints).",
        Required = true,
        CustomParser = result => Path.GetFullPath(result.Tokens[0].Value),
    };

    private static Option<string?> Hubs() => new("--hubs")
    {
        Description = "The namespace config (default: <app-root>/eventhubs.emulator.json).",
        CustomParser = result => Path.GetFullPath(result.Tokens[0].Value),
    };

    private static Uri LoopbackUrl(ArgumentResult result)
    {
        var text = result.Tokens[0].Value;
        if (Uri.TryCreate(text.EndsWith('/') ? text : text + "/", UriKind.Absolute, out var url) && url.IsLoopback)
        {
            return url;
        }

        result.AddError($"{(result.Parent as OptionResult)?.Option.Name}: '{text}' is not a loopback URL like http://127.0.0.1:7071.");
        return null!;
    }
}
