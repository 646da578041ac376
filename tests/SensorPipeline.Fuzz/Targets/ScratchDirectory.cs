namespace SensorPipeline.Fuzz.Targets;

/// <summary>One empty directory per process for the log targets, emptied before each input.</summary>
internal static class ScratchDirectory
{
    private static readonly string Root = Path.Combine(Path.GetTempPath(), $"sensorpipeline-fuzz-{Environment.ProcessId}");

    /// <summary>An empty directory <paramref name="name"/> under this process's scratch root.</summary>
    public static string Fresh(string name)
    {
        var path = Path.Combine(Root, name);
        if (Directory.Exists(path))
        {
            Directory.Delete(path, recursive: true);
        }

        return Directory.CreateDirectory(path).FullName;
    }
}
