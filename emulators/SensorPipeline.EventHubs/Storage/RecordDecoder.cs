using System.Buffers.Binary;
using System.Text;

namespace SensorPipeline.EventHubs.Storage;

/// <summary>Turns stored records into <see cref="StoredEvent"/>s without copying bodies: each body is a slice of the
/// buffer it was read into (a cache chunk or a file read), which is never written again.</summary>
internal struct RecordDecoder(string partitionId, long segmentOffsetBase)
{
    private byte[]? _lastKeyBytes;
    private string? _lastKey;

    /// <summary>Decodes the record at <paramref name="position"/> in <paramref name="buffer"/>; <paramref name="filePosition"/>
    /// is its position in the segment file (for the offset). Returns the record length.</summary>
    public int Decode(byte[] buffer, int position, long filePosition, out StoredEvent stored)
    {
        var span = buffer.AsSpan(position);
        var payloadLength = BinaryPrimitives.ReadInt32LittleEndian(span);
        var p = span.Slice(RecordFormat.RecordHeaderSize, payloadLength);
        var sequence = BinaryPrimitives.ReadInt64LittleEndian(p);
        var ticks = BinaryPrimitives.ReadInt64LittleEndian(p[8..]);
        var keyLength = BinaryPrimitives.ReadInt32LittleEndian(p[16..]);
        string? key = null;
        var at = 20;
        if (keyLength >= 0)
        {
            key = Key(p.Slice(at, keyLength));
            at += keyLength;
        }

        var propertiesLength = BinaryPrimitives.ReadInt32LittleEndian(p[at..]);
        var bodyStart = position + RecordFormat.RecordHeaderSize + at + 4;
        var properties = propertiesLength == 0
            ? EncodedProperties.Empty
            : new EncodedProperties(new ReadOnlyMemory<byte>(buffer, bodyStart, propertiesLength));
        at += 4 + propertiesLength;
        bodyStart += propertiesLength + 4;
        var envelopeLength = BinaryPrimitives.ReadInt32LittleEndian(p[at..]);
        var envelope = envelopeLength == 0 ? ReadOnlyMemory<byte>.Empty : new ReadOnlyMemory<byte>(buffer, bodyStart, envelopeLength);
        at += 4 + envelopeLength;
        bodyStart += envelopeLength + 4;
        var bodyLength = BinaryPrimitives.ReadInt32LittleEndian(p[at..]);
        stored = new StoredEvent(
            sequence,
            segmentOffsetBase + filePosition,
            new DateTimeOffset(ticks, TimeSpan.Zero),
            key,
            new ReadOnlyMemory<byte>(buffer, bodyStart, bodyLength),
            properties,
            partitionId)
        {
            AmqpEnvelope = envelope,
        };
        return RecordFormat.RecordHeaderSize + payloadLength;
    }

    // Consecutive events often share a key (one device, one publisher): reuse the string instead of allocating.
    private string Key(ReadOnlySpan<byte> bytes)
    {
        if (_lastKey is not null && bytes.SequenceEqual(_lastKeyBytes))
        {
            return _lastKey;
        }

        _lastKeyBytes = bytes.ToArray();
        return _lastKey = Encoding.UTF8.GetString(bytes);
    }
}
