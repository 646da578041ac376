namespace SensorPipeline.Functions.Bench;

/// <summary><c>./pipeline bench scale</c> (<see cref="ScaleArguments"/>): the local stack with separate instances running
/// the published handler (<c>./pipeline package</c>'s folder), then <see cref="ScaleBench"/>. Exit 1 when a phase's
/// verify finds a reading missing or stored twice, 2 on bad arguments or a missing package.</summary>
internal static class ScaleCommand
{
    public static Command Command() => ScaleArguments.Command(Path.Combine(RepoLayout.Discover().Root, ".pipeline", "deploy"),
        (arguments, token) => BenchRun.RunAsync("scale", t => RunAsync(arguments, t), token));

    private static async Task<int> RunAsync(ScaleArguments arguments, CancellationToken cancellationToken)
    {
        var layout = RepoLayout.Discover();
        var data = BenchRun.RunFolder(layout, "scale");
        string appRoot;
        try
        {
            appRoot = PreparePublishedAppRoot(layout, arguments.Package, Path.Combine(data, "app"));
        }
        catch (FileNotFoundException e)
        {
            await Console.Error.WriteLineAsync($"bench scale: {e.Message}");
            return ExitCodes.Usage;
        }

        var options = new StackOptions
        {
            DataDirectory = data, AppRoot = appRoot, MaxAge = TimeSpan.FromHours(1),
            Instances = new InstanceCount(1), InstanceSettings = arguments.InstanceSettings,
        };
        await using var pipeline = await LocalPipeline.StartAsync(layout, options, cancellationToken);
        Console.WriteLine($"Scale bench: devhost {pipeline.DevHostUrl} · Cosmos DB emulator {pipeline.CosmosEndpoint} · handler {arguments.Package} · logs {data}/logs · load average {ProcessCpu.ReadLoadAverage():F1}");
        var figures = await new ScaleBench(pipeline, arguments, Console.Out).RunAsync(cancellationToken);
        Console.WriteLine();
        figures.Print(Console.Out);
        return figures.Passed ? ExitCodes.Ok : ExitCodes.Failed;
    }

    /// <summary>
    /// The app root the instances run: the deploy folder's host.json, function folders and self-contained handler (what
    /// Azure runs), beside the repository's local.settings.json (the app settings Azure would hold) and the emulator's
    /// hub config devhost reads.
    /// </summary>
    private static string PreparePublishedAppRoot(RepoLayout layout, string package, string directory)
    {
        var host = Path.Combine(package, "host.json");
        if (!File.Exists(host) || !File.Exists(Path.Combine(package, "handler", "SensorPipeline.Functions")))
        {
            throw new FileNotFoundException($"{package} holds no published function app (host.json, handler/SensorPipeline.Functions): run ./pipeline package first, or pass --package DIR", host);
        }

        Directory.CreateDirectory(directory);
        File.Copy(host, Path.Combine(directory, "host.json"));
        foreach (var file in new[] { "local.settings.json", "eventhubs.emulator.json" })
        {
            File.Copy(layout.File(file), Path.Combine(directory, file));
        }

        foreach (var entry in Directory.EnumerateDirectories(package))
        {
            Directory.CreateSymbolicLink(Path.Combine(directory, Path.GetFileName(entry)), entry);
        }

        return directory;
    }
}
