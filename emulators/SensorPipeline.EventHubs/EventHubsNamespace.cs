using System.Globalization;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Logging;
using SensorPipeline.Emulators.Common;
using SensorPipeline.EventHubs.Storage;

namespace SensorPipeline.EventHubs;

/// <summary>A local Event Hubs namespace: one durable append-only log per partition under a data directory.
/// Opened once per process (a lock file keeps a second process out of the same directory).</summary>
public sealed class EventHubsNamespace : IAsyncDisposable
{
    private readonly Dictionary<string, Hub> _hubs;
    private readonly FileStream _lock;
    private readonly ITimer? _flushTimer;
    private readonly ITimer _retentionTimer;

    private EventHubsNamespace(NamespaceConfig config, string dataDirectory, EventLogOptions options, TimeProvider time, ILogger logger, LogStorage storage)
    {
        Storage = storage;
        Name = config.Name;
        Hubs = config.Hubs;
        DataDirectory = dataDirectory;
        Options = options;
        Counters = new EventHubsCounters(config.Name);
        Directory.CreateDirectory(dataDirectory);
        _lock = AcquireLock(dataDirectory);
        _hubs = new Dictionary<string, Hub>(StringComparer.OrdinalIgnoreCase);
        try
        {
            foreach (var hub in config.Hubs)
            {
                var partitions = hub.PartitionIds
                    .Select(id => PartitionLog.Open(hub.Name, id, Path.Combine(dataDirectory, hub.Name.ToLowerInvariant(), id), options, time, logger, storage, Counters))
                    .ToArray();
                _hubs.Add(hub.Name, new Hub(hub, partitions));
            }
        }
        catch
        {
            // Opening failed half-way: close what was opened so the lock and files are released before rethrowing.
            foreach (var p in _hubs.Values.SelectMany(h => h.Partitions))
            {
                p.DisposeAsync().AsTask().GetAwaiter().GetResult();
            }

            _lock.Dispose();
            Counters.Dispose();
            throw;
        }

        // Interval durability: a timer asks each partition to fsync what it wrote since its last fsync.
        if (options.Durability == DurabilityMode.Interval)
        {
            _flushTimer = time.CreateTimer(_ => RequestAll(PartitionLog.RequestKind.Flush), null, options.FlushInterval, options.FlushInterval);
        }

        _retentionTimer = time.CreateTimer(_ => RequestAll(PartitionLog.RequestKind.Retention), null, options.RetentionCheckInterval, options.RetentionCheckInterval);
    }

    /// <summary>The event hubs, as configured.</summary>
    public IReadOnlyList<EventHubDescription> Hubs { get; }

    /// <summary>The namespace name from the config.</summary>
    public string Name { get; }

    /// <summary>Where the partition logs live.</summary>
    public string DataDirectory { get; }

    /// <summary>The storage options the namespace was opened with.</summary>
    public EventLogOptions Options { get; }

    /// <summary>Running totals since the namespace opened (group commits, fsyncs, AMQP frames, events per protocol):
    /// <c>GET /status</c>'s <c>counters</c>, and a Meter named after this assembly.</summary>
    public EventHubsCounters Counters { get; }

    /// <summary>Every write and fsync of the logs goes through it; its fault switch is the chaos run's full disk.</summary>
    internal LogStorage Storage { get; }

    /// <summary>Opens (creating or recovering) the namespace's partition logs under <paramref name="dataDirectory"/>.
    /// Recovery truncates a torn tail of each partition's newest segment.</summary>
    public static EventHubsNamespace Open(NamespaceConfig config, string dataDirectory, EventLogOptions options, TimeProvider time) =>
        Open(config, dataDirectory, options, time, NullLogger.Instance);

    /// <inheritdoc cref="Open(NamespaceConfig, string, EventLogOptions, TimeProvider)"/>
    public static EventHubsNamespace Open(NamespaceConfig config, string dataDirectory, EventLogOptions options, TimeProvider time, ILogger logger) =>
        Open(config, dataDirectory, options, time, logger, new LogStorage());

    /// <summary>Opens the namespace over an injected storage layer (tests record or fail its writes and fsyncs).</summary>
    internal static EventHubsNamespace Open(NamespaceConfig config, string dataDirectory, EventLogOptions options, TimeProvider time, ILogger logger, LogStorage storage)
    {
        ArgumentNullException.ThrowIfNull(config);
        ArgumentException.ThrowIfNullOrEmpty(dataDirectory);
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(time);
        ArgumentNullException.ThrowIfNull(logger);
        var validation = new EventLogOptionsValidator().Validate(null, options);
        if (validation.Failed)
        {
            throw new ArgumentException(validation.FailureMessage, nameof(options));
        }

        ArgumentNullException.ThrowIfNull(storage);
        return new EventHubsNamespace(config, Path.GetFullPath(dataDirectory), options, time, logger, storage);
    }

    /// <summary>Appends events to ONE partition as one atomic batch (Event Hubs batch semantics): the partition is
    /// <paramref name="partitionId"/> when given, else a stable hash of the first event's partition key, else
    /// round-robin. Completes when the events are durable according to <see cref="EventLogOptions.Durability"/>;
    /// only then can readers see them. Bodies and properties are copied before the call returns.</summary>
    /// <remarks>Cancellation stops the wait, not the append: a batch already handed to the partition's writer is
    /// still appended, as with a send whose acknowledgement is lost (at-least-once on retry).</remarks>
    /// <exception cref="EventHubNotFoundException">No such hub.</exception>
    /// <exception cref="PartitionNotFoundException">No such partition.</exception>
    /// <exception cref="EventTooLargeException">An event or the batch is over 1 MiB; nothing was appended.</exception>
    public ValueTask<AppendResult> AppendAsync(string hub, string? partitionId, IReadOnlyList<EventToAppend> events, CancellationToken cancellationToken) =>
        AppendToPartitionAsync(hub, partitionId, events, transferJudged: false, cancellationToken);

    /// <summary>As <see cref="AppendAsync(string, string?, IReadOnlyList{EventToAppend}, CancellationToken)"/>, for
    /// events whose size the transport already judged as Event Hubs does — an AMQP transfer's bytes against the
    /// max-message-size its link announced — so the events are not measured again against the service's limit (their
    /// stored form differs from the wire's); only the log's own bounds on a record and a batch apply.</summary>
    /// <exception cref="EventTooLargeException">The stored form is past the log's bounds; nothing was appended.</exception>
    public ValueTask<AppendResult> AppendTransferAsync(string hub, string? partitionId, IReadOnlyList<EventToAppend> events, CancellationToken cancellationToken) =>
        AppendToPartitionAsync(hub, partitionId, events, transferJudged: true, cancellationToken);

    private ValueTask<AppendResult> AppendToPartitionAsync(string hub, string? partitionId, IReadOnlyList<EventToAppend> events, bool transferJudged, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(events);
        var h = GetHub(hub);
        PartitionLog partition;
        if (partitionId is not null)
        {
            partition = h.Partition(partitionId);
        }
        else if (events.Count > 0 && events[0].PartitionKey is { } key)
        {
            partition = h.Partitions[PartitionHash.Partition(key, h.Partitions.Length)];
        }
        else
        {
            partition = h.Partitions[(int)((uint)Interlocked.Increment(ref h.RoundRobin) % (uint)h.Partitions.Length)];
        }

        return partition.AppendAsync(events, transferJudged, cancellationToken);
    }

    /// <summary>Reads a partition from a sequence number: waits until at least <paramref name="minEvents"/> are available
    /// or <paramref name="maxWait"/> elapses (then returns what is there, maybe none), returns at most
    /// <paramref name="maxEvents"/>, in order. A sequence number older than retention reads from the oldest retained event.</summary>
    /// <exception cref="EventHubNotFoundException">No such hub.</exception>
    /// <exception cref="PartitionNotFoundException">No such partition.</exception>
    public ValueTask<IReadOnlyList<StoredEvent>> ReadAsync(string hub, string partitionId, long fromSequenceNumber, int minEvents, int maxEvents, TimeSpan maxWait, CancellationToken cancellationToken)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(fromSequenceNumber);
        ArgumentOutOfRangeException.ThrowIfNegative(minEvents);
        ArgumentOutOfRangeException.ThrowIfLessThan(maxEvents, 1);
        ArgumentOutOfRangeException.ThrowIfLessThan(maxWait, TimeSpan.Zero);
        return GetHub(hub).Partition(partitionId).ReadAsync(fromSequenceNumber, Math.Min(minEvents, maxEvents), maxEvents, maxWait, cancellationToken);
    }

    /// <summary>The sequence number of the first acknowledged event at or after byte offset <paramref name="offset"/> of a
    /// partition (the next sequence number when there is none): how a reader that starts from an offset finds its place.</summary>
    public long SequenceAtOrAfterOffset(string hub, string partitionId, long offset) => GetHub(hub).Partition(partitionId).SequenceAtOrAfterOffset(offset);

    /// <summary>A snapshot of one partition (acknowledged events only).</summary>
    public PartitionProperties GetPartitionProperties(string hub, string partitionId) => GetHub(hub).Partition(partitionId).GetProperties();

    /// <summary>The description of one hub.</summary>
    /// <exception cref="EventHubNotFoundException">No such hub.</exception>
    public EventHubDescription GetHubDescription(string hub) => GetHub(hub).Description;

    /// <summary>Finishes pending appends, fsyncs every partition and releases the data directory.</summary>
    public async ValueTask DisposeAsync()
    {
        if (_flushTimer is not null)
        {
            await _flushTimer.DisposeAsync();
        }

        await _retentionTimer.DisposeAsync();
        foreach (var partition in _hubs.Values.SelectMany(h => h.Partitions))
        {
            await partition.DisposeAsync();
        }

        await _lock.DisposeAsync();
        Counters.Dispose();
    }

    internal PartitionLog GetPartitionLog(string hub, string partitionId) => GetHub(hub).Partition(partitionId);

    private static FileStream AcquireLock(string dataDirectory)
    {
        var path = Path.Combine(dataDirectory, ".lock");
        try
        {
            // FileShare.None: a second devhost on the same data directory would interleave writes into the same
            // segment files; the OS drops the lock when the process dies, so kill -9 never leaves it stale.
            return new FileStream(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None);
        }
        catch (IOException e)
        {
            throw new IOException($"The data directory '{dataDirectory}' is in use by another process ({path} is locked).", e);
        }
    }

    private void RequestAll(PartitionLog.RequestKind kind)
    {
        foreach (var hub in _hubs.Values)
        {
            foreach (var partition in hub.Partitions)
            {
                partition.RequestWork(kind);
            }
        }
    }

    private Hub GetHub(string hub)
    {
        ArgumentNullException.ThrowIfNull(hub);
        return _hubs.TryGetValue(hub, out var h) ? h : throw EventHubNotFoundException.For(hub);
    }

    private sealed class Hub(EventHubDescription description, PartitionLog[] partitions)
    {
        public int RoundRobin = -1;

        public EventHubDescription Description { get; } = description;

        public PartitionLog[] Partitions { get; } = partitions;

        public PartitionLog Partition(string partitionId)
        {
            ArgumentNullException.ThrowIfNull(partitionId);
            return int.TryParse(partitionId, NumberStyles.None, CultureInfo.InvariantCulture, out var index)
                && index < Partitions.Length
                && partitionId == Partitions[index].PartitionId
                ? Partitions[index]
                : throw PartitionNotFoundException.For(Description.Name, partitionId, Partitions.Length);
        }
    }
}
