namespace SensorPipeline.Functions.Bench;

internal static class RepoRoot
{
    public static string Find()
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "SensorPipeline.slnx")))
            {
                return directory.FullName;
            }
        }

        throw new InvalidOperationException("Run from inside the repository (SensorPipeline.slnx not found).");
    }
}
