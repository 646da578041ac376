using System.Buffers.Binary;
using System.Buffers;
using System.Text;
using SensorPipeline.Emulators.Common;

namespace SensorPipeline.EventHubs.Storage;

internal sealed partial class PartitionLog
{
    /// <summary>Caps one group commit, so one fsync never waits behind an unbounded backlog.</summary>
    private const long MaxGroupBytes = 8L * 1024 * 1024;

    private readonly List<Request> _group = new(256);
    private readonly List<ReadOnlyMemory<byte>> _pendingWrites = new(256);
    private int _indexedCount;
    private bool _dirty;

    /// <summary>Appends events measured as the service would count them (see <see cref="Measure"/>).</summary>
    public ValueTask<AppendResult> AppendAsync(IReadOnlyList<EventToAppend> events, CancellationToken cancellationToken) =>
        AppendAsync(events, transferJudged: false, cancellationToken);

    /// <summary>Encodes the batch on the caller's thread (callers run in parallel; the writer only stamps and writes)
    /// and queues it for the writer loop. <paramref name="transferJudged"/>: the transport judged the service's size
    /// limit on the bytes it received (see <see cref="Measure"/>).</summary>
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
            var recordBytes = Measure(events, lengths, transferJudged);
            buffer = ArrayPool<byte>.Shared.Rent((int)recordBytes);
            var at = Encode(events, lengths, buffer);
            var request = new Request(buffer, at, events.Count);
            if (!_requests.Writer.TryWrite(request))
            {
                throw new ObjectDisposedException($"Partition {Hub}/{PartitionId}", "The namespace is shutting down.");
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

    /// <summary>Checks every event and the batch against the size limit, keeping each event's key and properties
    /// lengths in <paramref name="lengths"/> for <see cref="Encode"/>; returns the records' total size. Event Hubs judges
    /// the bytes of the AMQP message a client sends; when the transport had them (<paramref name="transferJudged"/>, AMQP)
    /// it judged them, and only the log's own bounds apply here (a record's stored form is not its wire form: properties
    /// are stored wider than AMQP's compact encodings, a batch's key is stored with each event). Otherwise (REST, the
    /// devhost routes) there is no AMQP message, and the events are measured as the service would count them.</summary>
    private static long Measure(IReadOnlyList<EventToAppend> events, int[] lengths, bool transferJudged)
    {
        var eventLimit = transferJudged ? RecordFormat.MaxStoredEventSize : EventLogOptions.MaxEventSizeBytes;
        long batchSize = 0;
        long recordBytes = 0;
        for (var i = 0; i < events.Count; i++)
        {
            var e = events[i] ?? throw new ArgumentException($"Event {i} is null.", nameof(events));
            var keyLength = e.PartitionKey is null ? 0 : Encoding.UTF8.GetByteCount(e.PartitionKey);
            var propertiesLength = PropertyCodec.Measure(e.Properties);
            var size = RecordFormat.EventSize(e.Body.Length, keyLength, propertiesLength, e.AmqpEnvelope.Length);
            if (size > eventLimit)
            {
                throw EventTooLargeException.For(events.Count == 1 ? "The event" : $"Event {i} of the batch", size, eventLimit);
            }

            lengths[2 * i] = keyLength;
            lengths[(2 * i) + 1] = propertiesLength;

            // A single event is sent as a message of its own; in a batch every event brings its AMQP framing, which
            // the service counts (so a batch of empty events is not 0 bytes).
            batchSize += events.Count == 1 ? size : RecordFormat.BatchedEventSize(size);
            recordBytes += RecordFormat.RecordOverhead + size;
        }

        if (!transferJudged && batchSize > EventLogOptions.MaxEventSizeBytes)
        {
            throw EventTooLargeException.For($"The batch of {events.Count} events (each with its AMQP framing, as the service counts it)", batchSize, EventLogOptions.MaxEventSizeBytes);
        }

        return recordBytes <= RecordFormat.MaxStoredBatchBytes
            ? recordBytes
            : throw EventTooLargeException.For($"The batch of {events.Count} events, as stored,", recordBytes, RecordFormat.MaxStoredBatchBytes);
    }

    private static int Encode(IReadOnlyList<EventToAppend> events, int[] lengths, byte[] buffer)
    {
        var at = 0;
        for (var i = 0; i < events.Count; i++)
        {
            var e = events[i];
            at += RecordFormat.WriteUnstamped(buffer.AsSpan(at), e.PartitionKey, lengths[2 * i], e.Properties, lengths[(2 * i) + 1], e.AmqpEnvelope.Span, e.Body.Span);
        }

        return at;
    }

    private async Task RunWriterAsync()
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
                    case RequestKind.Append:
                        _group.Add(request);
                        bytes += request.Length;
                        break;
                    case RequestKind.Flush:
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
                ApplyRetentionLogged();
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
        var segments = _segments;
        var active = segments[^1];
        var start = active.Length;
        var position = start;
        foreach (var request in _group)
        {
            if (position > RecordFormat.SegmentHeaderSize && position + request.Length > _options.SegmentSizeBytes)
            {
                await WritePendingAsync(active, start, position, ticks);
                active = RollSegment(active);
                start = position = active.Length;
            }

            var first = _nextSequence;
            var records = request.Buffer.AsSpan(0, request.Length);
            for (var at = 0; at < records.Length;)
            {
                var length = RecordFormat.Stamp(records[at..], _nextSequence++, ticks);
                active.AddPosition((int)(position + at));
                _cache.Append(active, position + at, records.Slice(at, length));
                at += length;
            }

            _pendingWrites.Add(request.Buffer.AsMemory(0, request.Length));
            position += request.Length;
            request.Result = new AppendResult(PartitionId, first, _nextSequence - 1);
        }

        await WritePendingAsync(active, start, position, ticks);
        if (_options.Durability == DurabilityMode.Always)
        {
            // Always durability's commit point: one fsync for the whole group (group commit), before any acknowledgement,
            // so an acknowledged event survives power loss. Nothing is visible to readers before this line.
            _storage.Flush(_activeLog);
            MarkDurable(position);
        }
        else
        {
            _dirty = true;
        }

        var lastPosition = active.Positions[active.Count - 1];
        Volatile.Write(ref _head, new Head(_nextSequence, active.OffsetOf(lastPosition), ticks));
        Interlocked.Exchange(ref _published, new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).TrySetResult();

        // The acknowledgement: callers (and the HTTP 201) learn their sequence numbers only now.
        foreach (var request in _group)
        {
            request.ReturnBuffer();
            request.Completion!.TrySetResult(request.Result!);
        }
    }

    /// <summary>One gather write of the queued record buffers plus their index entries; then the segment publishes
    /// them (readers still wait for the head).</summary>
    private async Task WritePendingAsync(Segment active, long start, long end, long ticks)
    {
        if (_pendingWrites.Count == 0)
        {
            return;
        }

        await _storage.WriteAsync(_activeLog, _pendingWrites, start);
        _pendingWrites.Clear();
        var positions = active.Positions;
        var count = active.PendingCount;
        var index = ArrayPool<byte>.Shared.Rent((count - _indexedCount) * 4);
        try
        {
            for (var i = _indexedCount; i < count; i++)
            {
                BinaryPrimitives.WriteInt32LittleEndian(index.AsSpan((i - _indexedCount) * 4), positions[i]);
            }

            // The index is not fsynced: recovery rebuilds it from the log whenever it disagrees.
            await _storage.WriteAsync(_activeIndex, index.AsMemory(0, (count - _indexedCount) * 4), _indexedCount * 4L);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(index);
        }

        _indexedCount = count;
        active.Publish(end, ticks);
    }

    private Segment RollSegment(Segment full)
    {
        if (_options.Durability != DurabilityMode.None)
        {
            // A sealed segment (and its index) is fsynced once, so recovery may trust every sealed segment to be complete.
            _storage.Flush(_activeLog);
            _storage.Flush(_activeIndex);
            _dirty = false;
        }

        var (next, log, index) = CreateSegment(_directory, _nextSequence, full.OffsetOf(full.Length), _options, _storage);
        _activeLog.Dispose();
        _activeIndex.Dispose();
        _activeLog = log;
        _activeIndex = index;
        _indexedCount = 0;
        Volatile.Write(ref _segments, [.. _segments, next]);
        EventHubsLog.SegmentRolled(_logger, Hub, PartitionId, next.BaseSequence);
        ApplyRetention();
        return next;
    }

    /// <summary>Deletes whole sealed segments, oldest first, while the partition is over its size limit or the
    /// segment's newest event is older than the retention period. The segment being written is never deleted.</summary>
    private void ApplyRetention()
    {
        var segments = _segments;
        var oldest = _time.GetUtcNow().UtcTicks - _options.RetentionPeriod.Ticks;
        var total = segments.Sum(s => s.Length);
        var drop = 0;
        while (drop < segments.Length - 1 && (total > _options.RetentionMaxBytesPerPartition || segments[drop].LastTicks < oldest))
        {
            total -= segments[drop].Length;
            drop++;
        }

        if (drop == 0)
        {
            return;
        }

        Volatile.Write(ref _segments, segments[drop..]);
        for (var i = 0; i < drop; i++)
        {
            // Readers that already picked this segment get FileNotFoundException and retry from the new beginning.
            _cache.Drop(segments[i]);
            DeleteSegmentFiles(segments[i].LogPath);
        }

        EventHubsLog.SegmentsDeleted(_logger, Hub, PartitionId, drop, segments[drop].BaseSequence);
    }

    private sealed class Request
    {
        public static readonly Request Flush = new(RequestKind.Flush);
        public static readonly Request Retention = new(RequestKind.Retention);

        public Request(byte[] buffer, int length, int eventCount)
        {
            Kind = RequestKind.Append;
            Buffer = buffer;
            Length = length;
            EventCount = eventCount;
            Completion = new TaskCompletionSource<AppendResult>(TaskCreationOptions.RunContinuationsAsynchronously);
        }

        private Request(RequestKind kind)
        {
            Kind = kind;
            Buffer = [];
        }

        public RequestKind Kind { get; }

        public byte[] Buffer { get; private set; }

        public int Length { get; }

        public int EventCount { get; }

        public TaskCompletionSource<AppendResult>? Completion { get; }

        public AppendResult? Result { get; set; }

        public void ReturnBuffer()
        {
            if (Buffer.Length > 0)
            {
                ArrayPool<byte>.Shared.Return(Buffer);
                Buffer = [];
            }
        }
    }
}
