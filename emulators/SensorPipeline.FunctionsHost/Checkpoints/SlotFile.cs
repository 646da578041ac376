using System.Globalization;
using System.Security.Cryptography;
using System.Text;
using SensorPipeline.Emulators.Common;

namespace SensorPipeline.FunctionsHost.Checkpoints;

/// <summary>A small record kept in two slot files written alternately in place (the checkpoint and ownership stores
/// share it): each slot holds one line "{generation} {fields…} {check}", check = the first 16 hex digits of SHA-256
/// over the rest, so a write torn by a crash damages only the slot being written and fails its check; reading takes the
/// newest intact slot. In-place writes avoid rename-over-existing, which ext4 turns into a synchronous data flush.</summary>
internal static class SlotFile
{
    /// <summary>The slot a generation is written to: generations alternate between slot 0 and slot 1.</summary>
    public static string SlotPath(string directory, string name, long generation, string extension) =>
        Path.Combine(directory, $"{Safe(name)}.{(generation % 2).ToString(CultureInfo.InvariantCulture)}.{extension}");

    /// <summary>Reads both slots; returns the fields (generation first) of the newest intact one, and how many slots
    /// exist but fail their check.</summary>
    public static async Task<(string[]? Newest, int Damaged)> ReadNewestAsync(string directory, string name, string extension, CancellationToken cancellationToken)
    {
        string[]? newest = null;
        var newestGeneration = long.MinValue;
        var damaged = 0;
        for (var slot = 0; slot < 2; slot++)
        {
            var path = SlotPath(directory, name, slot, extension);
            if (!File.Exists(path))
            {
                continue;
            }

            var text = await File.ReadAllTextAsync(path, cancellationToken);
            var parts = text.TrimEnd('\n').Split(' ');
            if (parts.Length < 2 || parts[^1] != Check(string.Join(' ', parts[..^1]))
                || !long.TryParse(parts[0], NumberStyles.Integer, CultureInfo.InvariantCulture, out var generation))
            {
                damaged++;
                continue;
            }

            if (generation > newestGeneration)
            {
                newest = parts[..^1];
                newestGeneration = generation;
            }
        }

        return (newest, damaged);
    }

    /// <summary>Writes <paramref name="fields"/> (generation first, none containing a space) to the generation's slot,
    /// flushed to disk when <paramref name="fsync"/>; the directory is fsynced when the slot file is created.</summary>
    public static async Task WriteAsync(string directory, string name, string extension, long generation, string fields, bool fsync, CancellationToken cancellationToken)
    {
        var path = SlotPath(directory, name, generation, extension);
        var created = !File.Exists(path);
        if (created)
        {
            Directory.CreateDirectory(directory);
        }

        var body = string.Create(CultureInfo.InvariantCulture, $"{generation} {fields}");
        var content = Encoding.UTF8.GetBytes(body + " " + Check(body) + "\n");
        await using (var stream = new FileStream(path, FileMode.OpenOrCreate, FileAccess.Write, FileShare.Read, 1, FileOptions.None))
        {
            await stream.WriteAsync(content, cancellationToken);
            stream.SetLength(content.Length);
            stream.Flush(flushToDisk: fsync);
        }

        if (created && fsync)
        {
            DirectorySync.Flush(directory);
        }
    }

    /// <summary>A hub, consumer group or partition name as a path segment. Names are case-insensitive in Event Hubs;
    /// '$Default' is a legal file name.</summary>
    public static string Safe(string name) => name.ToLowerInvariant().Replace('/', '_').Replace('\\', '_');

    private static string Check(string body) => Convert.ToHexString(SHA256.HashData(Encoding.UTF8.GetBytes(body)), 0, 8);
}
