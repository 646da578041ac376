using System.Buffers;
using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Wire;
using SensorKind = SensorPipeline.Protos.SensorKind;

namespace SensorPipeline.Core.Splitting;

/// <summary>
/// Builds the <c>ForwardEnvelope</c>s of one kind for one invocation by copying each reading's encoded bytes — the
/// splitter never decodes-and-re-encodes a reading, so what the device sent is exactly what the processor reads.
/// An envelope is closed before the reading that would take it past <see cref="EnvelopeBudget.MaxEnvelopeBytes"/> or
/// <see cref="EnvelopeBudget.MaxReadingsPerEnvelope"/>, so there is no size cliff: any number of readings of any
/// ingestion event goes out in as many envelopes as it takes. Each envelope carries only the sources its readings
/// point at (appended at its end: protobuf fields may come in any order). Envelopes are written one after the other
/// into one buffer, and each is one event's body as it is. Reusable: <see cref="Reset"/> between invocations.
/// </summary>
public sealed class EnvelopeWriter
{
    private readonly ArrayBufferWriter<byte> _buffer;
    private readonly List<(int Start, int Length)> _closed = [];
    private readonly List<SourcePosition> _sources = [];
    private int _envelopeStart;
    private int _sourceBytes;
    private int _currentEventIndex = -1;
    private int _currentSourceIndex = -1;
    private int _envelopeReadings;
    private long _forwardedTimeUnixMs;

    /// <summary>A writer of <paramref name="kind"/> envelopes whose buffers start at <paramref name="initialBufferBytes"/> and grow as needed.</summary>
    public EnvelopeWriter(SensorKind kind, int initialBufferBytes = 64 * 1024)
    {
        Kind = kind;
        _buffer = new ArrayBufferWriter<byte>(initialBufferBytes);
    }

    /// <summary>The kind of every reading written.</summary>
    public SensorKind Kind { get; }

    /// <summary>Readings written since the last reset.</summary>
    public int ReadingCount { get; private set; }

    /// <summary>Starts a new invocation; envelopes closed from now on carry <paramref name="forwardedTimeUnixMs"/>.</summary>
    public void Reset(long forwardedTimeUnixMs)
    {
        _buffer.ResetWrittenCount();
        _closed.Clear();
        _forwardedTimeUnixMs = forwardedTimeUnixMs;
        ReadingCount = 0;
        StartEnvelope();
    }

    /// <summary>
    /// Adds a reading from the ingestion event <paramref name="eventIndex"/> (events are added in order). False, and
    /// nothing written, only when the reading could not fit even an empty envelope (see <see cref="EnvelopeBudget.FitsAlone"/>).
    /// </summary>
    public bool TryAdd(ReadOnlySpan<byte> readingBytes, int eventIndex, in SourcePosition source)
    {
        if (!EnvelopeBudget.FitsAlone(readingBytes.Length, source))
        {
            return false;
        }

        var newSource = eventIndex != _currentEventIndex;
        var sourceIndex = newSource ? _sources.Count : _currentSourceIndex;
        var added = EnvelopeBudget.ForwardedReadingBytes(readingBytes.Length, sourceIndex) + (newSource ? EnvelopeBudget.SourceEntryBytes(source) : 0);
        if (_envelopeReadings > 0
            && (_envelopeReadings == EnvelopeBudget.MaxReadingsPerEnvelope || CurrentEnvelopeBytes + added > EnvelopeBudget.MaxEnvelopeBytes))
        {
            CloseEnvelope();
            StartEnvelope();
            newSource = true;
            sourceIndex = 0;
        }

        if (newSource)
        {
            _currentEventIndex = eventIndex;
            _currentSourceIndex = sourceIndex;
            _sources.Add(source);
            _sourceBytes += EnvelopeBudget.SourceEntryBytes(source);
        }

        var inner = ProtoWriter.LengthDelimitedSize(1, readingBytes.Length) + 1 + ProtoWriter.VarintSize((ulong)sourceIndex);
        ProtoWriter.WriteLengthDelimitedHeader(_buffer, 3, inner);
        ProtoWriter.WriteLengthDelimitedField(_buffer, 1, readingBytes);
        ProtoWriter.WriteVarintField(_buffer, 2, (ulong)sourceIndex);
        _envelopeReadings++;
        ReadingCount++;
        return true;
    }

    /// <summary>Closes the last envelope and returns every envelope's bytes, valid until the next reset.</summary>
    public IReadOnlyList<ReadOnlyMemory<byte>> Complete()
    {
        if (_envelopeReadings > 0)
        {
            CloseEnvelope();
            StartEnvelope();
        }

        var memory = _buffer.WrittenMemory;
        var envelopes = new ReadOnlyMemory<byte>[_closed.Count];
        for (var i = 0; i < envelopes.Length; i++)
        {
            envelopes[i] = memory.Slice(_closed[i].Start, _closed[i].Length);
        }

        return envelopes;
    }

    /// <summary>The open envelope's final size if closed now (readings, sources, kind and time at their largest).</summary>
    private int CurrentEnvelopeBytes => _buffer.WrittenCount - _envelopeStart + _sourceBytes + EnvelopeBudget.EnvelopeFixedBytes;

    private void StartEnvelope()
    {
        _envelopeStart = _buffer.WrittenCount;
        _sources.Clear();
        _sourceBytes = 0;
        _currentEventIndex = -1;
        _currentSourceIndex = -1;
        _envelopeReadings = 0;
    }

    private void CloseEnvelope()
    {
        Span<byte> partition = stackalloc byte[EnvelopeBudget.MaxPartitionIdBytes * 3];
        foreach (var source in _sources)
        {
            var idLength = System.Text.Encoding.UTF8.GetBytes(source.PartitionId, partition);
            var entry = ProtoWriter.LengthDelimitedSize(1, idLength)
                + 1 + ProtoWriter.VarintSize(unchecked((ulong)source.SequenceNumber))
                + 1 + ProtoWriter.VarintSize(unchecked((ulong)source.EnqueuedTimeUnixMs));
            ProtoWriter.WriteLengthDelimitedHeader(_buffer, 2, entry);
            ProtoWriter.WriteLengthDelimitedField(_buffer, 1, partition[..idLength]);
            ProtoWriter.WriteVarintField(_buffer, 2, unchecked((ulong)source.SequenceNumber));
            ProtoWriter.WriteVarintField(_buffer, 3, unchecked((ulong)source.EnqueuedTimeUnixMs));
        }

        ProtoWriter.WriteVarintField(_buffer, 1, (ulong)Kind);
        ProtoWriter.WriteVarintField(_buffer, 4, unchecked((ulong)_forwardedTimeUnixMs));
        _closed.Add((_envelopeStart, _buffer.WrittenCount - _envelopeStart));
    }
}
