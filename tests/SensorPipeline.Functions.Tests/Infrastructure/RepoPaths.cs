namespace SensorPipeline.Functions.Tests.Infrastructure;

/// <summary>Paths inside the repository and the build output, found from the test assembly's location.</summary>
internal static class RepoPaths
{
    public static string Root { get; } = FindRoot();

    /// <summary>The handler built beside this test project (artifacts/bin/SensorPipeline.Functions/&lt;config&gt;/).</summary>
    public static string HandlerDll
    {
        get
        {
            var testOutput = new DirectoryInfo(AppContext.BaseDirectory.TrimEnd(Path.DirectorySeparatorChar));
            var configuration = testOutput.Name;
            var path = Path.Combine(testOutput.Parent!.Parent!.FullName, "SensorPipeline.Functions", configuration, "SensorPipeline.Functions.dll");
            return File.Exists(path) ? path : throw new FileNotFoundException("Build functions/SensorPipeline.Functions first.", path);
        }
    }

    /// <summary>The Cosmos DB emulator built beside this test project (artifacts/bin/SensorPipeline.CosmosEmulator/&lt;config&gt;/).</summary>
    public static string CosmosEmulatorDll
    {
        get
        {
            var testOutput = new DirectoryInfo(AppContext.BaseDirectory.TrimEnd(Path.DirectorySeparatorChar));
            var path = Path.Combine(testOutput.Parent!.Parent!.FullName, "SensorPipeline.CosmosEmulator", testOutput.Name, "SensorPipeline.CosmosEmulator.dll");
            return File.Exists(path) ? path : throw new FileNotFoundException("Build devhost/SensorPipeline.CosmosEmulator first.", path);
        }
    }

    private static string FindRoot()
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "SensorPipeline.slnx")))
            {
                return directory.FullName;
            }
        }

        throw new InvalidOperationException("SensorPipeline.slnx not found above " + AppContext.BaseDirectory);
    }
}
