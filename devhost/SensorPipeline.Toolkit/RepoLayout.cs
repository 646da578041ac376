namespace SensorPipeline.Toolkit;

/// <summary>
/// Where the repository's files and programs are: the folder holding SensorPipeline.slnx, and build outputs under
/// <c>artifacts/bin/&lt;project&gt;/&lt;configuration&gt;/</c> (UseArtifactsOutput), the configuration being the one the
/// calling program was built in — a test in Debug runs the Debug devhost, the Release stack the Release handler.
/// </summary>
public sealed class RepoLayout
{
    private RepoLayout(string root, string configuration)
    {
        Root = root;
        Configuration = configuration;
    }

    /// <summary>The layout found from this program's own location (cached).</summary>
    public static RepoLayout Current => Lazy.Value;

    /// <summary>The folder holding SensorPipeline.slnx.</summary>
    public string Root { get; }

    /// <summary><c>debug</c> or <c>release</c> (the artifacts folder's naming).</summary>
    public string Configuration { get; }

    public string DevHostDll => Built("SensorPipeline.DevHost", "SensorPipeline.DevHost.dll");

    public string LoadGenDll => Built("SensorPipeline.LoadGen", "loadgen.dll");

    public string HandlerDll => Built("SensorPipeline.Functions", "SensorPipeline.Functions.dll");

    /// <summary>The handler's build output (holds the apphost <c>SensorPipeline.Functions</c>).</summary>
    public string HandlerBuildDirectory => Path.Combine(Root, "artifacts", "bin", "SensorPipeline.Functions", Configuration);

    /// <summary>The pipeline's Event Hubs namespace (hubs, partitions, consumer groups) for the emulator.</summary>
    public string EventHubsConfig => Path.Combine(Root, "eventhubs.emulator.json");

    /// <summary>The local Cosmos DB emulator program.</summary>
    public string CosmosEmulatorDll => Built("SensorPipeline.CosmosEmulator", "SensorPipeline.CosmosEmulator.dll");

    /// <summary>A file in the repository, by its path relative to the root.</summary>
    public string File(params string[] relative) => Path.Combine([Root, .. relative]);

    /// <summary>A build output of <paramref name="project"/> in this configuration (it may not exist yet).</summary>
    public string Built(string project, string file) => Path.Combine(Root, "artifacts", "bin", project, Configuration, file);

    /// <summary>A build output that must exist; the error names the project to build.</summary>
    public string RequireBuilt(string project, string file)
    {
        var path = Built(project, file);
        return System.IO.File.Exists(path)
            ? path
            : throw new FileNotFoundException($"{path} is missing: build {project} first (`dotnet build SensorPipeline.slnx -c {Configuration}`; a test project builds what it references).", path);
    }

    /// <summary>Throws naming the missing program and the command that builds it (what the stack runs).</summary>
    public void RequireStackBuilt()
    {
        foreach (var file in new[] { DevHostDll, LoadGenDll, CosmosEmulatorDll })
        {
            if (!System.IO.File.Exists(file))
            {
                throw new InvalidOperationException($"{file} is missing: build first (./pipeline demo does, or `dotnet build SensorPipeline.slnx -c {Configuration}`).");
            }
        }
    }

    /// <summary>
    /// Makes a throw-away function app root: the repository's host.json, function folders and settings, with
    /// <c>handler/</c> pointing at the handler's build output — the layout host.json names, without a publish step.
    /// </summary>
    public string PrepareAppRoot(string directory)
    {
        Directory.CreateDirectory(directory);
        foreach (var file in new[] { "host.json", "local.settings.json", "eventhubs.emulator.json" })
        {
            System.IO.File.Copy(Path.Combine(Root, file), Path.Combine(directory, file), overwrite: true);
        }

        Link(Path.Combine(directory, "functions"), Path.Combine(Root, "functions"));
        Link(Path.Combine(directory, "handler"), HandlerBuildDirectory);
        return directory;
    }

    /// <summary>Finds the repository above <paramref name="directory"/> (default: this program's own location); the
    /// configuration is the name of the artifacts folder the program runs from.</summary>
    public static RepoLayout Discover(string? directory = null)
    {
        var start = new DirectoryInfo((directory ?? AppContext.BaseDirectory).TrimEnd(Path.DirectorySeparatorChar));
        var configuration = start.Name.StartsWith("release", StringComparison.OrdinalIgnoreCase) ? "release" : "debug";
        var root = start;
        while (root is not null && !System.IO.File.Exists(Path.Combine(root.FullName, "SensorPipeline.slnx")))
        {
            root = root.Parent;
        }

        return root is null
            ? throw new InvalidOperationException($"SensorPipeline.slnx not found above {start.FullName}: run from a built repository.")
            : new RepoLayout(root.FullName, configuration);
    }

    private static readonly Lazy<RepoLayout> Lazy = new(() => Discover());

    private static void Link(string path, string target)
    {
        if (Directory.Exists(path) || System.IO.File.Exists(path))
        {
            Directory.Delete(path);
        }

        Directory.CreateSymbolicLink(path, target);
    }
}
