namespace SensorPipeline.Stack;

/// <summary>
/// Where the repository's programs are once built: everything under <c>artifacts/bin/&lt;project&gt;/&lt;config&gt;/</c>
/// (UseArtifactsOutput), the configuration being the one this program was built in.
/// </summary>
public sealed class RepoLayout
{
    private RepoLayout(string root, string configuration)
    {
        Root = root;
        Configuration = configuration;
    }

    /// <summary>The folder holding SensorPipeline.slnx.</summary>
    public string Root { get; }

    /// <summary><c>debug</c> or <c>release</c> (artifacts folder naming).</summary>
    public string Configuration { get; }

    public string DevHostDll => Bin("SensorPipeline.DevHost", "SensorPipeline.DevHost.dll");

    public string LoadGenDll => Bin("SensorPipeline.LoadGen", "loadgen.dll");

    /// <summary>The handler's build output (holds the apphost <c>SensorPipeline.Functions</c>).</summary>
    public string HandlerBuildDirectory => Path.Combine(Root, "artifacts", "bin", "SensorPipeline.Functions", Configuration);

    public string CosmosEmulatorDll => Bin("SensorPipeline.CosmosEmulator", "SensorPipeline.CosmosEmulator.dll");

    /// <summary>Finds the repository from this program's own location.</summary>
    public static RepoLayout Discover()
    {
        var directory = new DirectoryInfo(AppContext.BaseDirectory);
        var configuration = directory.Name.StartsWith("release", StringComparison.OrdinalIgnoreCase) ? "release" : "debug";
        while (directory is not null && !File.Exists(Path.Combine(directory.FullName, "SensorPipeline.slnx")))
        {
            directory = directory.Parent;
        }

        return directory is null
            ? throw new InvalidOperationException($"SensorPipeline.slnx not found above {AppContext.BaseDirectory}: run from a built repository.")
            : new RepoLayout(directory.FullName, configuration);
    }

    /// <summary>Throws naming the missing program and the command that builds it.</summary>
    public void RequireBuilt()
    {
        foreach (var file in new[] { DevHostDll, LoadGenDll, CosmosEmulatorDll })
        {
            if (!File.Exists(file))
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
            File.Copy(Path.Combine(Root, file), Path.Combine(directory, file), overwrite: true);
        }

        Link(Path.Combine(directory, "functions"), Path.Combine(Root, "functions"));
        Link(Path.Combine(directory, "handler"), HandlerBuildDirectory);
        return directory;
    }

    private static void Link(string path, string target)
    {
        if (Directory.Exists(path) || File.Exists(path))
        {
            Directory.Delete(path);
        }

        Directory.CreateSymbolicLink(path, target);
    }

    private string Bin(string project, string file) => Path.Combine(Root, "artifacts", "bin", project, Configuration, file);
}
