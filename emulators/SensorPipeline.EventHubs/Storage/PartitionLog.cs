using System.Threading.Channels;
using Microsoft.Extensions.Logging;
using Microsoft.Win32.SafeHandles;
using SensorPipeline.Emulators.Common;

namespace SensorPipeline.EventHubs.Storage;

/// <summary>One partition: an append-only list of segment files with one writer loop (group commit) and
/// lock-free readers. State visible to readers is published in this order: segment positions and cache,
/// the segment list, then <see cref="Head"/> (only after the data is as durable as the policy demands).</summary>
internal sealed partial class PartitionLog : IAsyncDisposable
{
    private readonly string _directory;
    private readonly EventLogOptions _options;
    private readonly TimeProvider _time;
    private readonly ILogger _logger;
    private readonly LogStorage _storage;
    private readonly RecentCache _cache;
    private readonly Channel<Request> _requests = Channel.CreateUnbounded<Request>(new UnboundedChannelOptions { SingleReader = true });
    private Segment[] _segments;
    private Head _head;
    private TaskCompletionSource _published = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private SafeFileHandle _activeLog;
    private SafeFileHandle _activeIndex;
    private long _nextSequence;
    private Task _loop = Task.CompletedTask;
    private volatile Exception? _fault;

    private PartitionLog(string hub, string partitionId, string directory, EventLogOptions options, TimeProvider time, ILogger logger,
        LogStorage storage, List<Segment> segments, SafeFileHandle activeLog, SafeFileHandle activeIndex)
    {
        _storage = storage;
        Hub = hub;
        PartitionId = partitionId;
        _directory = directory;
        _options = options;
        _time = time;
        _logger = logger;
        _cache = new RecentCache(options.CacheBytesPerPartition);
        _segments = [.. segments];
        _activeLog = activeLog;
        _activeIndex = activeIndex;
        _nextSequence = segments[^1].NextSequence;
        _head = HeadOf(_segments, _nextSequence);
    }

    internal enum RequestKind
    {
        Append,
        Flush,
        Retention,
    }

    public string Hub { get; }

    public string PartitionId { get; }

    /// <summary>What readers may see: events below <see cref="VisibleNext"/> are acknowledged.</summary>
    private sealed record Head(long VisibleNext, long LastOffset, long LastTicks);

    public static PartitionLog Open(string hub, string partitionId, string directory, EventLogOptions options, TimeProvider time, ILogger logger, LogStorage storage)
    {
        storage.CreateDirectory(directory, durable: options.Durability != DurabilityMode.None);
        var (segments, activeLog, activeIndex) = Recover(hub, partitionId, directory, options, logger, storage);
        var log = new PartitionLog(hub, partitionId, directory, options, time, logger, storage, segments, activeLog, activeIndex);
        log._loop = log.RunWriterAsync();
        EventHubsLog.PartitionOpened(logger, hub, partitionId, segments.Count, segments[0].BaseSequence, log._nextSequence - 1);
        return log;
    }

    public PartitionProperties GetProperties()
    {
        var head = Volatile.Read(ref _head);
        var segments = Volatile.Read(ref _segments);
        var beginning = segments[0].BaseSequence;
        var isEmpty = head.VisibleNext <= beginning;
        return new PartitionProperties(
            Hub,
            PartitionId,
            beginning,
            head.VisibleNext - 1,
            head.LastOffset,
            head.VisibleNext == 0 ? DateTimeOffset.MinValue : new DateTimeOffset(head.LastTicks, TimeSpan.Zero),
            isEmpty,
            segments.Sum(s => s.Length),
            segments.Length);
    }

    /// <summary>Asks the writer loop for a periodic fsync or retention pass.</summary>
    public void RequestWork(RequestKind kind) => _requests.Writer.TryWrite(kind == RequestKind.Flush ? Request.Flush : Request.Retention);

    public async ValueTask DisposeAsync()
    {
        if (_requests.Writer.TryComplete())
        {
            // The loop drains what was queued before completion, then fsyncs: a clean shutdown loses nothing in any mode.
            await _loop;
            _activeLog.Dispose();
            _activeIndex.Dispose();
            Volatile.Read(ref _published).TrySetResult();
        }
    }

    private static Head HeadOf(Segment[] segments, long next)
    {
        for (var i = segments.Length - 1; i >= 0; i--)
        {
            var s = segments[i];
            if (s.Count > 0)
            {
                return new Head(next, s.OffsetOf(s.Positions[s.Count - 1]), s.LastTicks);
            }
        }

        return new Head(next, -1, 0);
    }
}
