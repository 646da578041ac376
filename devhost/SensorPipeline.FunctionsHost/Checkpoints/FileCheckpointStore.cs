using System.Collections.Concurrent;
using System.Text.Json;

namespace SensorPipeline.FunctionsHost.Checkpoints;

/// <summary>Checkpoints on disk, one small JSON file per hub / consumer group / partition under
/// <c>{data}/checkpoints/</c> — the local stand-in for the extension's blob checkpoint store. Each write goes to a
/// temporary file, is fsynced, renamed over the old one and the directory fsynced, so after a crash (even kill -9
/// or power loss) a checkpoint is either the old or the new one, never torn. One listener owns each partition, so
/// writes to one file never race.</summary>
public sealed class FileCheckpointStore
{
    private readonly string _root;
    private readonly TimeProvider _time;
    private readonly bool _fsync;
    private readonly ConcurrentDictionary<CheckpointKey, Checkpoint> _cache = new();

    public FileCheckpointStore(string dataDirectory, TimeProvider time, bool fsync = true)
    {
        _root = Path.Combine(Path.GetFullPath(dataDirectory), "checkpoints");
        _time = time;
        _fsync = fsync;
    }

    /// <summary>The last checkpoint this process read or wrote (for /status).</summary>
    public Checkpoint? Peek(CheckpointKey key) => _cache.TryGetValue(key, out Checkpoint? checkpoint) ? checkpoint : null;

    public async Task<Checkpoint?> ReadAsync(CheckpointKey key, CancellationToken cancellationToken)
    {
        string path = PathOf(key);
        if (!File.Exists(path))
        {
            return null;
        }

        byte[] bytes = await File.ReadAllBytesAsync(path, cancellationToken);
        Checkpoint checkpoint;
        try
        {
            using JsonDocument document = JsonDocument.Parse(bytes);
            JsonElement root = document.RootElement;
            checkpoint = new Checkpoint(
                root.GetProperty("sequenceNumber").GetInt64(),
                root.GetProperty("offset").GetInt64(),
                root.GetProperty("lastModified").GetDateTimeOffset());
        }
        catch (Exception ex) when (ex is JsonException or KeyNotFoundException or InvalidOperationException or FormatException)
        {
            // Written atomically, so a bad file was edited by hand: refuse rather than silently restart from the beginning.
            throw new InvalidDataException($"{path}: not a checkpoint ({ex.Message}); delete it to restart from initialOffsetOptions", ex);
        }

        _cache[key] = checkpoint;
        return checkpoint;
    }

    public async Task<Checkpoint> WriteAsync(CheckpointKey key, long sequenceNumber, long offset, CancellationToken cancellationToken)
    {
        var checkpoint = new Checkpoint(sequenceNumber, offset, _time.GetUtcNow());
        string path = PathOf(key);
        string directory = Path.GetDirectoryName(path)!;
        Directory.CreateDirectory(directory);
        string temporary = path + ".tmp";
        await using (var stream = new FileStream(temporary, FileMode.Create, FileAccess.Write, FileShare.None, 4096, FileOptions.Asynchronous))
        {
            await using (var writer = new Utf8JsonWriter(stream))
            {
                writer.WriteStartObject();
                writer.WriteNumber("sequenceNumber", checkpoint.SequenceNumber);
                writer.WriteNumber("offset", checkpoint.Offset);
                writer.WriteString("lastModified", checkpoint.LastModified);
                writer.WriteEndObject();
                await writer.FlushAsync(cancellationToken);
            }

            stream.Flush(flushToDisk: _fsync);
        }

        File.Move(temporary, path, overwrite: true);
        if (_fsync)
        {
            DirectorySync.Flush(directory);
        }
        _cache[key] = checkpoint;
        return checkpoint;
    }

    private string PathOf(CheckpointKey key) =>
        Path.Combine(_root, Safe(key.Hub), Safe(key.ConsumerGroup), Safe(key.PartitionId) + ".json");

    // Hub and consumer group names are case-insensitive in Event Hubs; '$Default' is a legal file name.
    private static string Safe(string name) => name.ToLowerInvariant().Replace('/', '_').Replace('\\', '_');
}
