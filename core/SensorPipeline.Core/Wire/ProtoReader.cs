using System.Buffers.Binary;
using System.Runtime.CompilerServices;

namespace SensorPipeline.Core.Wire;

/// <summary>Protobuf wire types (https://protobuf.dev/programming-guides/encoding/).</summary>
public enum WireType
{
    Varint = 0,
    Fixed64 = 1,
    LengthDelimited = 2,
    StartGroup = 3,
    EndGroup = 4,
    Fixed32 = 5,
}

/// <summary>
/// A forward-only protobuf wire reader over a span: the primitives under <see cref="ProtoFields"/>, the walk every
/// decoder uses. The hot path decodes readings with it instead of
/// Google.Protobuf's generated classes because those allocate five objects per reading (message,
/// location, timestamp, payload, device-id string); this reads the same bytes without allocating.
/// Every method returns false on malformed input instead of throwing, so one bad event costs a
/// dead-letter record, never an exception that unwinds the batch.
/// </summary>
public ref struct ProtoReader
{
    private readonly ReadOnlySpan<byte> _buffer;
    private int _position;

    public ProtoReader(ReadOnlySpan<byte> buffer)
    {
        _buffer = buffer;
        _position = 0;
    }

    /// <summary>True when every byte has been read.</summary>
    public readonly bool End => _position >= _buffer.Length;

    /// <summary>Bytes read so far.</summary>
    public readonly int Position => _position;

    /// <summary>Reads a field tag. Field number 0 and group wire types are rejected (our schema has none).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryReadTag(out int fieldNumber, out WireType wireType)
    {
        // Every tag of our schema is one byte (field numbers below 16): read it inline, longer tags take the loop.
        if ((uint)_position < (uint)_buffer.Length && _buffer[_position] is var tag and < 0x80)
        {
            _position++;
            fieldNumber = tag >> 3;
            wireType = (WireType)(tag & 7);
            return fieldNumber > 0 && wireType is WireType.Varint or WireType.Fixed64 or WireType.LengthDelimited or WireType.Fixed32;
        }

        return TryReadLongTag(out fieldNumber, out wireType);
    }

    private bool TryReadLongTag(out int fieldNumber, out WireType wireType)
    {
        fieldNumber = 0;
        wireType = default;
        if (!TryReadVarint(out var tag) || tag > uint.MaxValue)
        {
            return false;
        }

        fieldNumber = (int)(tag >> 3);
        wireType = (WireType)(tag & 7);
        return fieldNumber > 0 && wireType is WireType.Varint or WireType.Fixed64 or WireType.LengthDelimited or WireType.Fixed32;
    }

    /// <summary>Reads a base-128 varint of at most 10 bytes.</summary>
    public bool TryReadVarint(out ulong value)
    {
        value = 0;
        var shift = 0;
        while (_position < _buffer.Length)
        {
            var b = _buffer[_position++];
            if (shift == 63 && b > 1)
            {
                return false; // the tenth byte may carry only the top bit
            }

            value |= (ulong)(b & 0x7F) << shift;
            if (b < 0x80)
            {
                return true;
            }

            shift += 7;
            if (shift > 63)
            {
                return false;
            }
        }

        return false;
    }

    /// <summary>Reads a little-endian 64-bit value (double, fixed64, sfixed64).</summary>
    public bool TryReadFixed64(out ulong value)
    {
        if (_buffer.Length - _position < 8)
        {
            value = 0;
            return false;
        }

        value = BinaryPrimitives.ReadUInt64LittleEndian(_buffer.Slice(_position, 8));
        _position += 8;
        return true;
    }

    /// <summary>Reads a length-delimited field's bytes without copying.</summary>
    public bool TryReadLengthDelimited(out ReadOnlySpan<byte> value)
    {
        value = default;
        if (!TryReadVarint(out var length) || length > (ulong)(_buffer.Length - _position))
        {
            return false;
        }

        value = _buffer.Slice(_position, (int)length);
        _position += (int)length;
        return true;
    }

    /// <summary>Passes over <paramref name="count"/> bytes (a fixed-size value no field of ours uses).</summary>
    public bool TrySkip(int count)
    {
        if (_buffer.Length - _position < count)
        {
            return false;
        }

        _position += count;
        return true;
    }
}
