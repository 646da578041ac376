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
    /// <summary>Collects the envelope's header fields into <paramref name="sources"/> (cleared first).</summary>
    public static DeadLetterReason TryReadHeader(ReadOnlySpan<byte> body, List<SourcePosition> sources, out SensorKind kind, out long forwardedTimeUnixMs, out int readingCount)
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

        var reader = new ProtoReader(body);
        while (!reader.End)
        {
            if (!reader.TryReadTag(out var field, out var wire))
            {
                return DeadLetterReason.Undecodable;
            }

            bool ok;
            switch (field, wire)
            {
                case (1, WireType.Varint):
                    ok = reader.TryReadVarint(out var k);
                    kind = (SensorKind)unchecked((int)k);
                    break;
                case (2, WireType.LengthDelimited):
                    var sourceReason = reader.TryReadLengthDelimited(out var source) ? TryReadSource(source, sources) : DeadLetterReason.Undecodable;
                    if (sourceReason != DeadLetterReason.None)
                    {
                        return sourceReason;
                    }

                    ok = true;
                    break;
                case (3, WireType.LengthDelimited):
                    ok = reader.TryReadLengthDelimited(out _);
                    readingCount++;
                    break;
                case (4, WireType.Varint):
                    ok = reader.TryReadVarint(out var t);
                    forwardedTimeUnixMs = unchecked((long)t);
                    break;
                default:
                    ok = reader.TrySkip(wire);
                    break;
            }

            if (!ok)
            {
                return DeadLetterReason.Undecodable;
            }
        }

        return readingCount == 0 ? DeadLetterReason.Undecodable : DeadLetterReason.None;
    }

    /// <summary>Decodes one ForwardedReading entry; false when malformed or its source index is out of range.</summary>
    public static bool TryReadForwardedReading(ReadOnlySpan<byte> entry, int sourceCount, out ReadOnlySpan<byte> reading, out int sourceIndex)
    {
        reading = default;
        sourceIndex = 0;
        var reader = new ProtoReader(entry);
        while (!reader.End)
        {
            if (!reader.TryReadTag(out var field, out var wire))
            {
                return false;
            }

            bool ok;
            if (field == 1 && wire == WireType.LengthDelimited)
            {
                ok = reader.TryReadLengthDelimited(out reading);
            }
            else if (field == 2 && wire == WireType.Varint)
            {
                ok = reader.TryReadVarint(out var index);
                sourceIndex = index < (ulong)sourceCount ? (int)index : -1;
            }
            else
            {
                ok = reader.TrySkip(wire);
            }

            if (!ok)
            {
                return false;
            }
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
        var reader = new ProtoReader(body);
        ReadOnlySpan<byte> partition = default;
        ulong sequence = 0, enqueued = 0;
        while (!reader.End)
        {
            if (!reader.TryReadTag(out var field, out var wire))
            {
                return DeadLetterReason.Undecodable;
            }

            var ok = (field, wire) switch
            {
                (1, WireType.LengthDelimited) => reader.TryReadLengthDelimited(out partition),
                (2, WireType.Varint) => reader.TryReadVarint(out sequence),
                (3, WireType.Varint) => reader.TryReadVarint(out enqueued),
                _ => reader.TrySkip(wire),
            };
            if (!ok)
            {
                return DeadLetterReason.Undecodable;
            }
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
