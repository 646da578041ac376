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

    /// <summary>Bytes in the log file.</summary>
    public long Length => Interlocked.Read(ref _length);

    /// <summary>Compactions done since start.</summary>
    public int Compactions { get; private set; }

    /// <summary>Queues a sealed record. Call it in the order the mutations were applied in memory (under the lock that
    /// ordered them); the task completes when the record is as durable as the mode promises.</summary>
    public Task AppendAsync(byte[] record)
    {
        if (_fault is { } fault)
        {
            return Task.FromException(new IOException("The store failed a write earlier and refuses writes until the emulator restarts.", fault));
        }

        var pending = new Pending(record);
        return _queue.Writer.TryWrite(pending) ? pending.Completion!.Task : Task.FromException(new ObjectDisposedException(nameof(MutationLog), "The emulator is shutting down."));
    }

    private async Task RunWriterAsync()
    {
        var reader = _queue.Reader;
        while (await reader.WaitToReadAsync(CancellationToken.None))
        {
            _group.Clear();
            _buffers.Clear();
            long bytes = 0;
            var flush = false;
            while (bytes < MaxGroupBytes && reader.TryRead(out var pending))
            {
                if (pending.Record is null)
                {
                    flush = true;
                    continue;
                }

                _group.Add(pending);
                _buffers.Add(pending.Record);
                bytes += pending.Record.Length;
            }

            try
            {
                if (_fault is not null)
                {
                    throw new IOException("The store failed a write earlier.", _fault);
                }

                if (_group.Count > 0)
                {
                    _storage.Write(_file, _buffers, _length);
                    Interlocked.Add(ref _length, bytes);
                    _dirty = true;
                    if (_durability == DurabilityMode.Always)
                    {
                        // The commit point: one fsync for the whole group before any acknowledgement.
                        _storage.Flush(_file);
                        _dirty = false;
                    }

                    foreach (var pending in _group)
                    {
                        pending.Completion!.TrySetResult();
                    }
                }

                if (flush && _dirty)
                {
                    _storage.Flush(_file);
                    _dirty = false;
                }

                if (_length > _compactionThreshold && _length > 2 * _liveBytes())
                {
                    Compact();
                }
            }
            catch (Exception e)
            {
                // The file may now end in a partial record: refuse further writes (recovery truncates it at restart)
                // and fail every caller of this group, none of which was acknowledged.
                if (_fault is null)
                {
                    _fault = e;
                    StorageLog.LogFaulted(_logger, _path, e);
                }

                foreach (var pending in _group)
                {
                    pending.Completion!.TrySetException(new IOException("The write failed and was not acknowledged.", e));
                }
            }
        }

        if (_fault is null)
        {
            _storage.Flush(_file);
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

    /// <summary>A queued record with its acknowledgement; a null record asks for an fsync (Interval mode's timer).</summary>
    private sealed class Pending(byte[]? record)
    {
        public static readonly Pending Flush = new(null);

        public byte[]? Record { get; } = record;

        public TaskCompletionSource? Completion { get; } = record is null ? null : new(TaskCreationOptions.RunContinuationsAsynchronously);
    }
}
