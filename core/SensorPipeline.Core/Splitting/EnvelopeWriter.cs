using System.Buffers;
using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Wire;

namespace SensorPipeline.Core.Splitting;

/// <summary>
/// Builds one <c>ForwardEnvelope</c> of one kind by copying each reading's encoded bytes — the splitter
/// never decodes-and-re-encodes a reading, so what the device sent is exactly what the processor reads.
/// Readings are written as they come; the sources they point at are appended at the end
/// (protobuf fields may come in any order). Reusable: <see cref="Reset"/> between invocations.
/// </summary>
public sealed class EnvelopeWriter
{
    private readonly ArrayBufferWriter<byte> _buffer = new(64 * 1024);
    private readonly List<SourcePosition> _sources = [];
    private int _currentEventIndex = -1;
    private int _currentSourceIndex = -1;

    public EnvelopeWriter(int kind) => Kind = kind;

    /// <summary>The proto SensorKind number of every reading written.</summary>
    public int Kind { get; }

    /// <summary>Readings written since the last reset.</summary>
    public int ReadingCount { get; private set; }

    /// <summary>Sources referenced since the last reset.</summary>
    public int SourceCount => _sources.Count;

    public void Reset()
    {
        _buffer.ResetWrittenCount();
        _sources.Clear();
        _currentEventIndex = -1;
        _currentSourceIndex = -1;
        ReadingCount = 0;
    }

    /// <summary>Adds a reading from the ingestion event <paramref name="eventIndex"/> (events are added in order).</summary>
    public void Add(ReadOnlySpan<byte> readingBytes, int eventIndex, in SourcePosition source)
    {
        if (eventIndex != _currentEventIndex)
        {
            _currentEventIndex = eventIndex;
            _currentSourceIndex = _sources.Count;
            _sources.Add(source);
        }

        var sourceIndex = (ulong)_currentSourceIndex;
        var inner = ProtoWriter.LengthDelimitedSize(1, readingBytes.Length) + 1 + ProtoWriter.VarintSize(sourceIndex);
        ProtoWriter.WriteLengthDelimitedHeader(_buffer, 3, inner);
        ProtoWriter.WriteLengthDelimitedField(_buffer, 1, readingBytes);
        ProtoWriter.WriteVarintField(_buffer, 2, sourceIndex);
        ReadingCount++;
    }

    /// <summary>Finishes the envelope (sources, kind, forwarded time) and returns its bytes, valid until the next reset.</summary>
    public ReadOnlyMemory<byte> Complete(long forwardedTimeUnixMs)
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
        ProtoWriter.WriteVarintField(_buffer, 4, unchecked((ulong)forwardedTimeUnixMs));
        return _buffer.WrittenMemory;
    }
}
