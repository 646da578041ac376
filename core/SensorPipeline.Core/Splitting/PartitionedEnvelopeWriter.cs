using SensorPipeline.Core.Readings;
using SensorKind = SensorPipeline.Protos.SensorKind;

namespace SensorPipeline.Core.Splitting;

/// <summary>
/// The envelopes of one kind for one invocation, kept apart per target partition: each reading goes to the envelopes
/// of its device's partition (<see cref="DevicePartitioner"/>), each partition's cut by size and count as ever
/// (<see cref="EnvelopeWriter"/>). A partition's writer is made the first time one of its devices shows up and kept
/// for the next invocations; its buffers start small, because with many partitions each holds only a share.
/// Reusable: <see cref="Reset"/> between invocations. Not thread-safe.
/// </summary>
public sealed class PartitionedEnvelopeWriter
{
    private const int PartitionBufferBytes = 4 * 1024;

    private readonly List<EnvelopeWriter?> _writers = [];
    private readonly List<bool> _inUse = [];
    private readonly List<int> _used = [];
    private int _partitionCount = 1;
    private long _forwardedTimeUnixMs;

    public PartitionedEnvelopeWriter(SensorKind kind) => Kind = kind;

    /// <summary>The kind of every reading written.</summary>
    public SensorKind Kind { get; }

    /// <summary>Readings written since the last reset.</summary>
    public int ReadingCount { get; private set; }

    /// <summary>Starts a new invocation whose readings are spread over <paramref name="partitionCount"/> partitions.</summary>
    public void Reset(long forwardedTimeUnixMs, int partitionCount)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(partitionCount, 1);
        foreach (var partition in _used)
        {
            _inUse[partition] = false;
        }

        _used.Clear();
        _partitionCount = partitionCount;
        _forwardedTimeUnixMs = forwardedTimeUnixMs;
        ReadingCount = 0;
    }

    /// <summary>Adds a reading of the device <paramref name="deviceIdUtf8"/>; false as <see cref="EnvelopeWriter.TryAdd"/>.</summary>
    public bool TryAdd(ReadOnlySpan<byte> deviceIdUtf8, ReadOnlySpan<byte> readingBytes, int eventIndex, in SourcePosition source)
    {
        var writer = WriterFor(DevicePartitioner.PartitionOf(deviceIdUtf8, _partitionCount));
        if (!writer.TryAdd(readingBytes, eventIndex, source))
        {
            return false;
        }

        ReadingCount++;
        return true;
    }

    /// <summary>Closes every partition's last envelope; the partitions that got readings, in the order they first did.</summary>
    public IReadOnlyList<PartitionEnvelopes> Complete()
    {
        var groups = new PartitionEnvelopes[_used.Count];
        for (var i = 0; i < groups.Length; i++)
        {
            var writer = _writers[_used[i]]!;
            groups[i] = new PartitionEnvelopes(_used[i], writer.Complete(), writer.ReadingCount);
        }

        return groups;
    }

    private EnvelopeWriter WriterFor(int partition)
    {
        while (_writers.Count <= partition)
        {
            _writers.Add(null);
            _inUse.Add(false);
        }

        var writer = _writers[partition] ??= new EnvelopeWriter(Kind, PartitionBufferBytes);
        if (!_inUse[partition])
        {
            writer.Reset(_forwardedTimeUnixMs);
            _inUse[partition] = true;
            _used.Add(partition);
        }

        return writer;
    }
}
