using System.Buffers;
using System.Threading.Channels;
using Microsoft.Extensions.Logging;
using Microsoft.Win32.SafeHandles;
using SensorPipeline.Emulators.Common;

namespace SensorPipeline.EventHubs.Storage;

/// <summary>A partition's one writer: the append path and its loop. Callers encode their batch and queue it; the loop
/// takes what is queued (up to <see cref="MaxGroupBytes"/>) as one group, stamps sequence numbers and times, writes the
/// group with one gather write and, under Always durability, one fsync (group commit), then publishes the new head and
/// acknowledges. It owns the newest segment's files and rolls to a new segment when one is full.</summary>
internal sealed partial class PartitionWriter : IAsyncDisposable
{
    /// <summary>Caps one group commit, so one fsync never waits behind an unbounded backlog.</summary>
    private const long MaxGroupBytes = 8L * 1024 * 1024;

    private readonly PartitionState _state;
    private readonly string _directory;
    private readonly EventLogOptions _options;
    private readonly TimeProvider _time;
    private readonly ILogger _logger;
    private readonly LogStorage _storage;
    private readonly PartitionRetention _retention;
    private readonly Channel<WriteRequest> _requests = Channel.CreateUnbounded<WriteRequest>(new UnboundedChannelOptions { SingleReader = true });
    private readonly List<WriteRequest> _group = new(256);
    private readonly ActiveSegmentFiles _files;
    private readonly EventHubsCounters _counters;
    private bool _dirty;
    private long _nextSequence;
    private Task _loop = Task.CompletedTask;
    private volatile Exception? _fault;

    public PartitionWriter(PartitionState state, string directory, EventLogOptions options, TimeProvider time, ILogger logger, LogStorage storage,
        SafeFileHandle activeLog, SafeFileHandle activeIndex, EventHubsCounters counters)
    {
        _counters = counters;
        _state = state;
        _directory = directory;
        _options = options;
        _time = time;
        _logger = logger;
        _storage = storage;
        _retention = new PartitionRetention(state, options, time, logger);
        _files = new ActiveSegmentFiles(state, logger, storage, activeLog, activeIndex, counters);
        _nextSequence = state.Segments[^1].NextSequence;
    }

    /// <summary>Completes once the loop has taken the last request: nothing more will be published.</summary>
    public Task Stopped => _requests.Reader.Completion;

    public void Start() => _loop = RunAsync();

    /// <summary>Asks the loop for a periodic fsync or retention pass.</summary>
    public void RequestWork(PartitionLog.RequestKind kind) =>
        _requests.Writer.TryWrite(kind == PartitionLog.RequestKind.Flush ? WriteRequest.Flush : WriteRequest.Retention);

    public async ValueTask DisposeAsync()
    {
        if (_requests.Writer.TryComplete())
        {
            // The loop drains what was queued before completion, then fsyncs: a clean shutdown loses nothing in any mode.
            await _loop;
            _files.Dispose();
            _state.ReleaseReaders();
        }
    }

    /// <summary>Encodes the batch on the caller's thread (callers run in parallel; the writer only stamps and writes)
    /// and queues it for the writer loop. <paramref name="transferJudged"/>: the transport judged the service's size
    /// limit on the bytes it received (see <see cref="BatchEncoder.Measure"/>).</summary>
    public ValueTask<AppendResult> AppendAsync(IReadOnlyList<EventToAppend> events, bool transferJudged, CancellationToken cancellationToken)
    {
        if (events.Count == 0)
        {
            throw new ArgumentException("A batch needs at least one event.", nameof(events));
        }

        cancellationToken.ThrowIfCancellationRequested();
        ThrowIfBroken();
        var lengths = ArrayPool<int>.Shared.Rent(events.Count * 2);
        byte[]? buffer = null;
        try
        {
            var recordBytes = BatchEncoder.Measure(events, lengths, transferJudged);
            buffer = ArrayPool<byte>.Shared.Rent((int)recordBytes);
            var at = BatchEncoder.Encode(events, lengths, buffer);
            var request = new WriteRequest(buffer, at, events.Count);
            if (!_requests.Writer.TryWrite(request))
            {
                throw new ObjectDisposedException($"Partition {_state.Hub}/{_state.PartitionId}", "The namespace is shutting down.");
            }

            buffer = null; // the writer loop owns it now and returns it to the pool
            var completion = request.Completion!.Task;
            return new ValueTask<AppendResult>(cancellationToken.CanBeCanceled ? completion.WaitAsync(cancellationToken) : completion);
        }
        finally
        {
            ArrayPool<int>.Shared.Return(lengths);
            if (buffer is not null)
            {
                ArrayPool<byte>.Shared.Return(buffer);
            }
        }
    }

    private async Task RunAsync()
    {
        var reader = _requests.Reader;
        while (await reader.WaitToReadAsync(CancellationToken.None))
        {
            _group.Clear();
            long bytes = 0;
            bool flush = false, retention = false;
            while (bytes < MaxGroupBytes && reader.TryRead(out var request))
            {
                switch (request.Kind)
                {
                    case PartitionLog.RequestKind.Append:
                        _group.Add(request);
                        bytes += request.Length;
                        break;
                    case PartitionLog.RequestKind.Flush:
                        flush = true;
                        break;
                    default:
                        retention = true;
                        break;
                }
            }

            if (_group.Count > 0)
            {
                await WriteGroupOrRollBackAsync();
            }

            if (flush && _dirty && _fault is null)
            {
                FlushPending();
            }

            if (retention && _fault is null)
            {
                _retention.ApplyLogged();
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

    private async Task WriteGroupAsync()
    {
        var ticks = _time.GetUtcNow().UtcTicks;
        var active = _state.Segments[^1];
        var start = active.Length;
        var position = start;
        foreach (var request in _group)
        {
            if (position > RecordFormat.SegmentHeaderSize && position + request.Length > _options.SegmentSizeBytes)
            {
                await _files.WritePendingAsync(active, start, position, ticks);
                active = RollSegment(active);
                start = position = active.Length;
            }

            var first = _nextSequence;
            var records = request.Buffer.AsSpan(0, request.Length);
            for (var at = 0; at < records.Length;)
            {
                var length = RecordFormat.Stamp(records[at..], _nextSequence++, ticks);
                active.AddPosition((int)(position + at));
                _state.Cache.Append(active, position + at, records.Slice(at, length));
                at += length;
            }

            _files.Queue(request.Buffer.AsMemory(0, request.Length));
            position += request.Length;
            request.Result = new AppendResult(_state.PartitionId, first, _nextSequence - 1);
        }

        await _files.WritePendingAsync(active, start, position, ticks);
        if (_options.Durability == DurabilityMode.Always)
        {
            // Always durability's commit point: one fsync for the whole group (group commit), before any acknowledgement,
            // so an acknowledged event survives power loss. Nothing is visible to readers before this line.
            _files.FlushLog();
            _files.MarkDurable(position);
        }
        else
        {
            _dirty = true;
        }

        var lastPosition = active.Positions[active.Count - 1];
        _state.Publish(new PartitionState.Head(_nextSequence, active.OffsetOf(lastPosition), ticks));

        _counters.GroupCommitted((int)(_nextSequence - _group[0].Result!.FirstSequenceNumber));

        // The acknowledgement: callers (and the HTTP 201) learn their sequence numbers only now.
        foreach (var request in _group)
        {
            request.ReturnBuffer();
            request.Completion!.TrySetResult(request.Result!);
        }
    }

    private Segment RollSegment(Segment full)
    {
        if (_options.Durability != DurabilityMode.None)
        {
            // A sealed segment (and its index) is fsynced once, so recovery may trust every sealed segment to be complete.
            _files.FlushForSealing();
            _dirty = false;
        }

        var (next, log, index) = SegmentFiles.Create(_directory, _nextSequence, full.OffsetOf(full.Length), _options, _storage);
        _files.SwitchTo(log, index);
        _state.Segments = [.. _state.Segments, next];
        EventHubsLog.SegmentRolled(_logger, _state.Hub, _state.PartitionId, next.BaseSequence);
        _retention.Apply();
        return next;
    }
}
