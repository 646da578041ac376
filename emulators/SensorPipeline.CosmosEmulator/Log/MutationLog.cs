using System.Threading.Channels;
using Microsoft.Win32.SafeHandles;
using SensorPipeline.Emulators.Common;

namespace SensorPipeline.CosmosEmulator.Log;

/// <summary>
/// The append-only log every mutation goes through before it is acknowledged. One writer loop takes whatever records
/// are queued, writes them with one call and — under <see cref="DurabilityMode.Always"/> — one fsync for all of them
/// (group commit) before completing their tasks. The log is rewritten as a snapshot of the live data (compaction)
/// when it has grown past the threshold and twice the live size, so start-up replays little more than the data.
/// </summary>
internal sealed partial class MutationLog : IAsyncDisposable
{
    public const string FileName = "cosmos.log";

    /// <summary>Caps one group, so one fsync never waits behind an unbounded backlog.</summary>
    private const long MaxGroupBytes = 8L * 1024 * 1024;

    private readonly Channel<Pending> _queue = Channel.CreateUnbounded<Pending>(new UnboundedChannelOptions { SingleReader = true });
    private readonly string _path;
    private readonly DurabilityMode _durability;
    private readonly long _compactionThreshold;
    private readonly Func<IEnumerable<byte[]>> _snapshot;
    private readonly Func<long> _liveBytes;
    private readonly ILogger _logger;
    private readonly LogStorage _storage;
    private readonly List<Pending> _group = new(256);
    private readonly List<ReadOnlyMemory<byte>> _buffers = new(256);
    private readonly Task _writer;
    private readonly Timer? _flushTimer;
    private SafeFileHandle _file;
    private long _length;
    private long _groupBytes;
    private long _compactionRetryAt;
    private bool _dirty;
    private Exception? _fault;

    private MutationLog(string path, SafeFileHandle file, long length, DurabilityMode durability, TimeSpan flushInterval, long compactionThreshold,
        Func<IEnumerable<byte[]>> snapshot, Func<long> liveBytes, ILogger logger, LogStorage storage)
    {
        (_path, _file, _length, _durability, _compactionThreshold, _snapshot, _liveBytes, _logger, _storage) =
            (path, file, length, durability, compactionThreshold, snapshot, liveBytes, logger, storage);
        _writer = RunWriterAsync();
        if (durability == DurabilityMode.Interval)
        {
            _flushTimer = new Timer(_ => _queue.Writer.TryWrite(Pending.Flush), null, flushInterval, flushInterval);
        }
    }

    /// <summary>Opens (or creates) the log in <paramref name="directory"/>, replays every intact record through
    /// <paramref name="apply"/> in order, cuts off a torn tail past the durable mark (never acknowledged: an
    /// acknowledgement waits for the whole record), refuses to start — naming the file and the byte — when a record
    /// before the mark is damaged, refuses a log of another format version, and compacts at once when the log is mostly
    /// dead records. Every write and fsync goes through <paramref name="storage"/>, the seam where tests and chaos runs
    /// inject a full disk.</summary>
    public static MutationLog Open(string directory, DurabilityMode durability, TimeSpan flushInterval, long compactionThreshold,
        Action<List<Mutation>> apply, Func<IEnumerable<byte[]>> snapshot, Func<long> liveBytes, ILogger logger, LogStorage storage)
    {
        ArgumentNullException.ThrowIfNull(storage);
        ArgumentNullException.ThrowIfNull(apply);
        storage.CreateDirectory(directory, durable: durability != DurabilityMode.None);
        var path = Path.Combine(directory, FileName);

        // A compaction interrupted before its rename leaves only a temporary file: the log itself is intact.
        File.Delete(path + ".compacting");
        var file = File.OpenHandle(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.Read, FileOptions.None);
        try
        {
            var replayed = LogRecovery.Replay(file, path, apply);
            var valid = LogRecovery.Recover(file, path, replayed, storage, logger);
            StorageLog.Recovered(logger, path, replayed.Records, valid);
            var log = new MutationLog(path, file, valid, durability, flushInterval, compactionThreshold, snapshot, liveBytes, logger, storage);
            if (valid > compactionThreshold && valid > 2 * liveBytes())
            {
                log._queue.Writer.TryWrite(Pending.Flush);
            }

            return log;
        }
        catch
        {
            file.Dispose();
            throw;
        }
    }

    /// <summary>Bytes in the log file.</summary>
    public long Length => Interlocked.Read(ref _length);

    /// <summary>Compactions done since start.</summary>
    public int Compactions { get; private set; }

    /// <summary>Queues a sealed record. Call it in the order the mutations were checked (under the lock that ordered
    /// them); <paramref name="effect"/> is applied to memory by the writer once the record is as durable as the mode
    /// promises, and the task completes after that.</summary>
    public Task AppendAsync(byte[] record, IRecordEffect? effect = null)
    {
        if (_fault is { } fault)
        {
            return Task.FromException(new IOException("The store could not undo a failed write and refuses writes until the emulator restarts.", fault));
        }

        var pending = new Pending(record, effect);
        return _queue.Writer.TryWrite(pending) ? pending.Completion!.Task : Task.FromException(new ObjectDisposedException(nameof(MutationLog), "The emulator is shutting down."));
    }

    private async Task RunWriterAsync()
    {
        var reader = _queue.Reader;
        while (await reader.WaitToReadAsync(CancellationToken.None))
        {
            var flush = CollectGroup(reader);
            if (_group.Count > 0)
            {
                WriteGroupOrRollBack();
            }

            if (flush && _dirty && _fault is null)
            {
                FlushPending();
            }

            if (_fault is null && ShouldCompact())
            {
                CompactOrPostpone();
            }
        }

        if (_fault is null)
        {
            // Clean shutdown: make everything written durable whatever the policy (unless the disk refuses), then the
            // mark that says so, so a restart can tell damage anywhere from a torn write.
            FlushPending();
            FlushPending();
        }
    }

    /// <summary>Takes the queued records (up to <see cref="MaxGroupBytes"/>) into the group; a record checked against
    /// versions a failed write discarded is refused here, never written. Returns whether an fsync was asked for.</summary>
    private bool CollectGroup(ChannelReader<Pending> reader)
    {
        _group.Clear();
        _buffers.Clear();
        _groupBytes = 0;
        var flush = false;
        while (_groupBytes < MaxGroupBytes && reader.TryRead(out var pending))
        {
            if (pending.Record is null)
            {
                flush = true;
            }
            else if (pending.Effect is { IsCurrent: false } stale)
            {
                stale.Discard(writeFailed: false);
                pending.Completion!.TrySetException(new IOException("An earlier write to this container failed; this one was checked against it and was not written."));
            }
            else
            {
                _group.Add(pending);
                _buffers.Add(pending.Record);
                _groupBytes += pending.Record.Length;
            }
        }

        return flush;
    }

    /// <summary>Writes the group (and fsyncs it under Always), applies it to memory and acknowledges it; or, when the
    /// disk refuses, cuts the file back to the last acknowledged record and discards the group, so nothing of it is
    /// visible and the next write simply tries again.</summary>
    private void WriteGroupOrRollBack()
    {
        try
        {
            _storage.Write(_file, _buffers, _length);
            if (_durability == DurabilityMode.Always)
            {
                // The commit point: one fsync for the whole group before anything of it is visible or acknowledged.
                _storage.Flush(_file);
            }
            else
            {
                _dirty = true;
            }
        }
        catch (IOException e)
        {
            RollBack(e);
            return;
        }

        Interlocked.Add(ref _length, _groupBytes);
        if (_durability == DurabilityMode.Always)
        {
            MarkDurable(_length);
        }

        foreach (var pending in _group)
        {
            // Visible only now, and before the acknowledgement: a reader after the 2xx sees the write.
            pending.Effect?.Apply();
            pending.Completion!.TrySetResult();
        }
    }

    private void RollBack(IOException e)
    {
        StorageLog.WriteFailed(_logger, _path, _group.Count, e);
        try
        {
            // Shrinking needs no space, so it works on a full disk; it removes whatever part of the group reached the file.
            RandomAccess.SetLength(_file, _length);
        }
        catch (IOException truncation)
        {
            _fault = truncation;
            StorageLog.LogFaulted(_logger, _path, truncation);
        }

        foreach (var pending in _group)
        {
            pending.Effect?.Discard(writeFailed: true);
            pending.Completion!.TrySetException(new IOException("The write failed and was not acknowledged.", e));
        }
    }

    /// <summary>Makes every write so far durable (Interval's commit point, and shutdown). A failed fsync keeps the data
    /// pending, so the next interval tries again.</summary>
    private void FlushPending()
    {
        try
        {
            var length = _length;
            _storage.Flush(_file);
            _dirty = false;
            MarkDurable(length);
        }
        catch (IOException e)
        {
            StorageLog.FlushFailed(_logger, _path, e);
        }
    }

    /// <summary>Records in the header that the first <paramref name="length"/> bytes are durable (best effort,
    /// <see cref="DurableLogFormat.TryMarkDurable"/>); recovery treats a bad record before it as damage, not a torn write.</summary>
    private void MarkDurable(long length)
    {
        if (DurableLogFormat.TryMarkDurable(_storage, _file, length) is { } failure)
        {
            StorageLog.MarkFailed(_logger, _path, failure);
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (_flushTimer is not null)
        {
            await _flushTimer.DisposeAsync();
        }

        _queue.Writer.TryComplete();
        await _writer;
        _file.Dispose();
    }

    /// <summary>A queued record with its effect and acknowledgement; a null record asks for an fsync (Interval mode's timer).</summary>
    private sealed class Pending(byte[]? record, IRecordEffect? effect = null)
    {
        public static readonly Pending Flush = new(null);

        public byte[]? Record { get; } = record;

        public IRecordEffect? Effect { get; } = effect;

        public TaskCompletionSource? Completion { get; } = record is null ? null : new(TaskCreationOptions.RunContinuationsAsynchronously);
    }
}
