using System.Text;
using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Wire;
using SensorKind = SensorPipeline.Protos.SensorKind;

namespace SensorPipeline.Core.Splitting;

/// <summary>
/// Reads a <c>ForwardEnvelope</c>: <see cref="TryReadHeader"/> checks the framing and collects kind,
/// sources and forwarded time in one pass (sources may follow the readings on the wire), then
/// <see cref="EnumerateReadings"/> yields each reading's bytes with its source index.
/// </summary>
public static class EnvelopeReader
{
    /// <summary>Collects the envelope's header fields into <paramref name="sources"/> (cleared first).
    /// <see cref="DeadLetterReason.Undecodable"/> for a body that is not an envelope: its framing does not parse, it
    /// names no kind the pipeline routes (an absent kind reads as unspecified), or it holds no reading. Envelopes
    /// travel as their bytes alone, with no marker, so this check is what tells garbage from an envelope.</summary>
    public static DeadLetterReason TryReadHeader(ReadOnlySpan<byte> body, List<SourcePosition> sources, out SensorKind kind, out long forwardedTimeUnixMs, out int readingCount,
        SensorKindCatalog? kinds = null)
    {
        ArgumentNullException.ThrowIfNull(sources);
        sources.Clear();
        kind = 0;
        forwardedTimeUnixMs = 0;
        readingCount = 0;
        if (body.IsEmpty)
        {
            return DeadLetterReason.EmptyBody;
        }

        var fields = new ProtoFields(body);
        while (fields.MoveNext(out var number, out var wireType))
        {
            switch (number, wireType)
            {
                case (1, WireType.Varint):
                    kind = (SensorKind)fields.ReadInt32();
                    break;
                case (2, WireType.LengthDelimited):
                    var source = fields.ReadBytes();
                    var sourceReason = fields.Malformed ? DeadLetterReason.Undecodable : TryReadSource(source, sources);
                    if (sourceReason != DeadLetterReason.None)
                    {
                        return sourceReason;
                    }

                    break;
                case (3, WireType.LengthDelimited):
                    readingCount++;
                    break;
                case (4, WireType.Varint):
                    forwardedTimeUnixMs = unchecked((long)fields.ReadVarint());
                    break;
            }
        }

        if (fields.Malformed)
        {
            return DeadLetterReason.Undecodable;
        }

        return readingCount == 0 || (kinds ?? SensorKindCatalog.Default).Find(kind) is null ? DeadLetterReason.Undecodable : DeadLetterReason.None;
    }

    /// <summary>Decodes one ForwardedReading entry; false when malformed or its source index is out of range.</summary>
    public static bool TryReadForwardedReading(ReadOnlySpan<byte> entry, int sourceCount, out ReadOnlySpan<byte> reading, out int sourceIndex)
    {
        reading = default;
        sourceIndex = 0;
        var fields = new ProtoFields(entry);
        while (fields.MoveNext(out var number, out var wireType))
        {
            switch (number, wireType)
            {
                case (1, WireType.LengthDelimited):
                    reading = fields.ReadBytes();
                    break;
                case (2, WireType.Varint):
                    var index = fields.ReadVarint();
                    sourceIndex = index < (ulong)sourceCount ? (int)index : -1;
                    break;
            }
        }

        if (fields.Malformed)
        {
            return false;
        }

        // An absent index is 0 on the wire (proto3), which an envelope without sources does not have: checked here, not
        // only when the field is present.
        return sourceIndex >= 0 && sourceIndex < sourceCount && !reading.IsEmpty;
    }

    /// <summary>Enumerates the encoded ForwardedReading entries (field 3) of a header-checked envelope.</summary>
    public static FieldEnumerator EnumerateReadings(ReadOnlySpan<byte> body) => new(body, 3);

    /// <summary>
    /// One source position; <see cref="DeadLetterReason.InvalidSource"/> for values no splitter writes (a forged or
    /// corrupted envelope): the whole envelope is kept for a human, and nothing downstream ever renders a time that
    /// cannot exist.
    /// </summary>
    private static DeadLetterReason TryReadSource(ReadOnlySpan<byte> body, List<SourcePosition> sources)
    {
        ReadOnlySpan<byte> partition = default;
        ulong sequence = 0, enqueued = 0;
        var fields = new ProtoFields(body);
        while (fields.MoveNext(out var number, out var wireType))
        {
            switch (number, wireType)
            {
                case (1, WireType.LengthDelimited):
                    partition = fields.ReadBytes();
                    break;
                case (2, WireType.Varint):
                    sequence = fields.ReadVarint();
                    break;
                case (3, WireType.Varint):
                    enqueued = fields.ReadVarint();
                    break;
            }
        }

        if (fields.Malformed)
        {
            return DeadLetterReason.Undecodable;
        }

        var position = new SourcePosition(Encoding.UTF8.GetString(partition), unchecked((long)sequence), unchecked((long)enqueued));
        if (partition.Length > EnvelopeBudget.MaxPartitionIdBytes || !position.HasValidEnqueuedTime)
        {
            return DeadLetterReason.InvalidSource;
        }

        sources.Add(position);
        return DeadLetterReason.None;
    }
}
