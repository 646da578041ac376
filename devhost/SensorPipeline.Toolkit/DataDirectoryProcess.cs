using System.Text.RegularExpressions;

namespace SensorPipeline.Toolkit;

/// <summary>
/// An emulator run as a child process that keeps its data in a directory (azurite, the Cosmos DB emulator): ready once
/// it prints the line announcing its address, and on dispose stopped, its directory deleted when it was a temporary
/// one (a test fixture's) and kept otherwise (the stack's, which a restart on the same directory finds again).
/// </summary>
public abstract class DataDirectoryProcess : IAsyncDisposable, IDisposable
{
    private readonly bool _temporary;

    protected DataDirectoryProcess(ChildProcess process, string dataDirectory, bool temporary)
    {
        Process = process;
        DataDirectory = dataDirectory;
        _temporary = temporary;
    }

    public ChildProcess Process { get; }

    /// <summary>Where the process keeps its data.</summary>
    public string DataDirectory { get; }

    /// <summary>A fresh folder under the system's temporary folder for one run of <paramref name="kind"/>.</summary>
    protected static string TemporaryDirectory(string kind) => Path.Combine(Path.GetTempPath(), "sensorpipeline-" + kind, Guid.NewGuid().ToString("N"));

    /// <summary>The address <paramref name="process"/> announces with <paramref name="announce"/> (group <c>url</c>);
    /// disposes the process when the line does not come within <paramref name="timeout"/> or it exits first.</summary>
    protected static async Task<Uri> WaitUntilListeningAsync(ChildProcess process, Regex announce, TimeSpan timeout, CancellationToken cancellationToken)
    {
        try
        {
            return await process.WaitForUrlAsync(announce, timeout, cancellationToken);
        }
        catch
        {
            await process.DisposeAsync();
            throw;
        }
    }

    public async ValueTask DisposeAsync()
    {
        await Process.DisposeAsync();
        DeleteTemporaryData();
        GC.SuppressFinalize(this);
    }

    public void Dispose()
    {
        Process.Dispose();
        DeleteTemporaryData();
        GC.SuppressFinalize(this);
    }

    private void DeleteTemporaryData()
    {
        if (!_temporary || !Directory.Exists(DataDirectory))
        {
            return;
        }

        try
        {
            Directory.Delete(DataDirectory, recursive: true);
        }
        catch (IOException)
        {
            // A file still held by a dying process: the temporary folder is left for the OS to clean.
        }
    }
}
