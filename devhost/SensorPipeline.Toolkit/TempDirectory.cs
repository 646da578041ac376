namespace SensorPipeline.Toolkit;

/// <summary>A fresh directory under the system's temporary folder, deleted with its contents on dispose.</summary>
public sealed class TempDirectory : IDisposable
{
    /// <param name="prefix">Starts the directory's name, so a leftover one says who made it.</param>
    public TempDirectory(string prefix = "sensorpipeline-")
    {
        Path = System.IO.Path.Combine(System.IO.Path.GetTempPath(), prefix + Guid.NewGuid().ToString("N")[..12]);
        Directory.CreateDirectory(Path);
    }

    public string Path { get; }

    /// <summary>A path inside the directory.</summary>
    public string File(string name) => System.IO.Path.Combine(Path, name);

    public void Dispose()
    {
        try
        {
            if (Directory.Exists(Path))
            {
                Directory.Delete(Path, recursive: true);
            }
        }
        catch (IOException)
        {
            // A process being killed may hold a file for a moment; a leftover temporary folder is harmless.
        }
    }
}
