using System.Text.Json;

namespace SensorPipeline.LoadGen.Ledger;

/// <summary>Reads and atomically replaces a ledger file.</summary>
internal static class LedgerFile
{
    /// <summary>
    /// Writes to a temporary file beside the target, flushes it to disk, then renames it over the target:
    /// a reader (or a crash) sees the old ledger or the new one, never half of one.
    /// </summary>
    public static async Task WriteAsync(string path, RunLedger ledger, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(path);
        var full = Path.GetFullPath(path);
        Directory.CreateDirectory(Path.GetDirectoryName(full)!);
        var temporary = full + ".tmp";
        await using (var stream = new FileStream(temporary, FileMode.Create, FileAccess.Write, FileShare.None, 16 * 1024, FileOptions.Asynchronous))
        {
            await JsonSerializer.SerializeAsync(stream, ledger, LedgerJsonContext.Default.RunLedger, cancellationToken);
            await stream.FlushAsync(cancellationToken);
            stream.Flush(flushToDisk: true);
        }

        File.Move(temporary, full, overwrite: true);
    }

    /// <summary>Reads a ledger; a missing or malformed file is an <see cref="InvalidDataException"/> naming it.</summary>
    public static async Task<RunLedger> ReadAsync(string path, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(path);
        try
        {
            await using var stream = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read, 16 * 1024, FileOptions.Asynchronous);
            var ledger = await JsonSerializer.DeserializeAsync(stream, LedgerJsonContext.Default.RunLedger, cancellationToken);
            return ledger is { Version: 1 }
                ? ledger
                : throw new InvalidDataException($"ledger '{path}': unsupported version {ledger?.Version} (expected 1).");
        }
        catch (JsonException e)
        {
            throw new InvalidDataException($"ledger '{path}' is not valid ledger JSON: {e.Message}", e);
        }
        catch (FileNotFoundException e)
        {
            throw new InvalidDataException($"ledger '{path}' does not exist.", e);
        }
    }
}
