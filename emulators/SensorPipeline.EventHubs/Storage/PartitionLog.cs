using Microsoft.Extensions.Logging;
using SensorPipeline.Emulators.Common;

namespace SensorPipeline.EventHubs.Storage;

/// <summary>One partition: an append-only list of segment files with one writer loop (group commit) and lock-free
/// readers. It wires its collaborators: <see cref="PartitionRecovery"/> rebuilds it from its files at start,
/// <see cref="PartitionWriter"/> appends (and applies <see cref="PartitionRetention"/>), <see cref="PartitionReader"/>
/// reads, and <see cref="PartitionState"/> is what the writer publishes to the readers.</summary>
internal sealed class PartitionLog : IAsyncDisposable
{
    private readonly PartitionState _state;
    private readonly PartitionWriter _writer;
    private readonly PartitionReader _reader;

    private PartitionLog(PartitionState state, PartitionWriter writer, TimeProvider time)
    {
        _state = state;
        _writer = writer;
        _reader = new PartitionReader(state, time, writer.Stopped);
    }

    internal enum RequestKind
    {
        Append,
        Flush,
        Retention,
    }

    public string Hub => _state.Hub;

    public string PartitionId => _state.PartitionId;

    public static PartitionLog Open(string hub, string partitionId, string directory, EventLogOptions options, TimeProvider time, ILogger logger, LogStorage storage, EventHubsCounters counters)
    {
        storage.CreateDirectory(directory, durable: options.Durability != DurabilityMode.None);
        var (segments, activeLog, activeIndex) = new PartitionRecovery(hub, partitionId, directory, options, logger, storage).Recover();
        var state = new PartitionState(hub, partitionId, [.. segments], segments[^1].NextSequence, new RecentCache(options.CacheBytesPerPartition));
        var writer = new PartitionWriter(state, directory, options, time, logger, storage, activeLog, activeIndex, counters);
        var log = new PartitionLog(state, writer, time);
        writer.Start();
        EventHubsLog.PartitionOpened(logger, hub, partitionId, segments.Count, segments[0].BaseSequence, segments[^1].NextSequence - 1);
        return log;
    }

    /// <summary>Appends events measured as the service would count them (see <see cref="BatchEncoder.Measure"/>).</summary>
    public ValueTask<AppendResult> AppendAsync(IReadOnlyList<EventToAppend> events, CancellationToken cancellationToken) =>
        _writer.AppendAsync(events, transferJudged: false, cancellationToken);

    /// <inheritdoc cref="PartitionWriter.AppendAsync"/>
    public ValueTask<AppendResult> AppendAsync(IReadOnlyList<EventToAppend> events, bool transferJudged, CancellationToken cancellationToken) =>
        _writer.AppendAsync(events, transferJudged, cancellationToken);

    /// <inheritdoc cref="PartitionReader.ReadAsync"/>
    public ValueTask<IReadOnlyList<StoredEvent>> ReadAsync(long fromSequenceNumber, int minEvents, int maxEvents, TimeSpan maxWait, CancellationToken cancellationToken) =>
        _reader.ReadAsync(fromSequenceNumber, minEvents, maxEvents, maxWait, cancellationToken);

    /// <inheritdoc cref="PartitionReader.SequenceAtOrAfterOffset"/>
    public long SequenceAtOrAfterOffset(long offset) => _reader.SequenceAtOrAfterOffset(offset);

    public PartitionProperties GetProperties()
    {
        var head = _state.Current;
        var segments = _state.Segments;
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
    public void RequestWork(RequestKind kind) => _writer.RequestWork(kind);

    public ValueTask DisposeAsync() => _writer.DisposeAsync();
}
