using Microsoft.Win32.SafeHandles;

namespace SensorPipeline.Emulators.Common;

/// <summary>Every write and fsync of the emulators' logs (Event Hubs partitions, the Cosmos DB mutation log) goes
/// through here: the one seam where the storage's failures can be injected. <see cref="FailWrites"/> makes each write
/// fail as a full disk does (ENOSPC), for tests and the chaos run — never by filling the machine's real disk. fsyncs
/// keep working, as they do for data already written when a disk fills up.</summary>
public class LogStorage
{
    /// <summary>errno ENOSPC on Linux; .NET puts the errno in the HResult of the IOException it throws.</summary>
    public const int NoSpaceErrno = 28;

    private volatile bool _failWrites;

    /// <summary>When true, every log, index and segment-header write throws <see cref="IOException"/> "No space left on device".</summary>
    public bool FailWrites
    {
        get => _failWrites;
        set => _failWrites = value;
    }

    public virtual void Write(SafeFileHandle file, ReadOnlySpan<byte> bytes, long offset)
    {
        ThrowIfFailing();
        RandomAccess.Write(file, bytes, offset);
    }

    /// <summary>A write whose failure is answered, not thrown: for what is best effort, such as a log's durable mark.</summary>
    public IOException? TryWrite(SafeFileHandle file, ReadOnlySpan<byte> bytes, long offset)
    {
        try
        {
            Write(file, bytes, offset);
            return null;
        }
        catch (IOException e)
        {
            return e;
        }
    }

    /// <summary>A synchronous gather write (the Cosmos DB emulator's writer loop).</summary>
    public virtual void Write(SafeFileHandle file, IReadOnlyList<ReadOnlyMemory<byte>> buffers, long offset)
    {
        ThrowIfFailing();
        RandomAccess.Write(file, buffers, offset);
    }

    public virtual ValueTask WriteAsync(SafeFileHandle file, IReadOnlyList<ReadOnlyMemory<byte>> buffers, long offset)
    {
        ThrowIfFailing();

        // CancellationToken.None: a write that has started must finish or fail, never stop half-way by request.
        return RandomAccess.WriteAsync(file, buffers, offset, CancellationToken.None);
    }

    public virtual ValueTask WriteAsync(SafeFileHandle file, ReadOnlyMemory<byte> bytes, long offset)
    {
        ThrowIfFailing();
        return RandomAccess.WriteAsync(file, bytes, offset, CancellationToken.None);
    }

    public virtual void Flush(SafeFileHandle file) => RandomAccess.FlushToDisk(file);

    /// <summary>Makes the entries of files created in <paramref name="directory"/> durable.</summary>
    public virtual void FlushDirectory(string directory) => DirectorySync.Flush(directory);

    /// <summary>Creates <paramref name="directory"/> and any missing parent; with <paramref name="durable"/>, fsyncs the
    /// parent of each directory it created, top down, so the new path survives power loss.</summary>
    public void CreateDirectory(string directory, bool durable)
    {
        var missing = new Stack<string>();
        for (var d = Path.GetFullPath(directory); !Directory.Exists(d); d = Path.GetDirectoryName(d)!)
        {
            missing.Push(d);
        }

        Directory.CreateDirectory(directory);
        while (durable && missing.TryPop(out var created))
        {
            FlushDirectory(Path.GetDirectoryName(created)!);
        }
    }

    private void ThrowIfFailing()
    {
        if (_failWrites)
        {
            throw new IOException("No space left on device (injected storage fault)", NoSpaceErrno);
        }
    }
}
