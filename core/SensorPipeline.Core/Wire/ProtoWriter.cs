using System.Buffers;
using System.Buffers.Binary;

namespace SensorPipeline.Core.Wire;

/// <summary>
/// Writes protobuf fields straight into an <see cref="IBufferWriter{T}"/>. The splitter uses it to
/// copy each reading's encoded bytes into a forward envelope without decoding and re-encoding them.
/// The size helpers are the single place the envelope's byte arithmetic lives (see <see cref="Splitting.EnvelopeBudget"/>).
/// </summary>
public static class ProtoWriter
{
    /// <summary>Bytes a varint of this value takes.</summary>
    public static int VarintSize(ulong value)
    {
        var size = 1;
        while (value >= 0x80)
        {
            value >>= 7;
            size++;
        }

        return size;
    }

    /// <summary>Bytes a tag of this field number takes.</summary>
    public static int TagSize(int fieldNumber) => VarintSize((ulong)fieldNumber << 3);

    /// <summary>Bytes a length-delimited field of this payload length takes, tag included.</summary>
    public static int LengthDelimitedSize(int fieldNumber, int payloadLength) =>
        TagSize(fieldNumber) + VarintSize((ulong)payloadLength) + payloadLength;

    public static void WriteVarint(IBufferWriter<byte> output, ulong value)
    {
        ArgumentNullException.ThrowIfNull(output);
        var span = output.GetSpan(10);
        var i = 0;
        while (value >= 0x80)
        {
            span[i++] = (byte)(value | 0x80);
            value >>= 7;
        }

        span[i++] = (byte)value;
        output.Advance(i);
    }

    public static void WriteTag(IBufferWriter<byte> output, int fieldNumber, WireType wireType) =>
        WriteVarint(output, ((ulong)fieldNumber << 3) | (ulong)wireType);

    public static void WriteVarintField(IBufferWriter<byte> output, int fieldNumber, ulong value)
    {
        WriteTag(output, fieldNumber, WireType.Varint);
        WriteVarint(output, value);
    }

    public static void WriteLengthDelimitedField(IBufferWriter<byte> output, int fieldNumber, ReadOnlySpan<byte> payload)
    {
        ArgumentNullException.ThrowIfNull(output);
        WriteTag(output, fieldNumber, WireType.LengthDelimited);
        WriteVarint(output, (ulong)payload.Length);
        payload.CopyTo(output.GetSpan(payload.Length));
        output.Advance(payload.Length);
    }

    /// <summary>Writes the header of a length-delimited field whose payload the caller writes next.</summary>
    public static void WriteLengthDelimitedHeader(IBufferWriter<byte> output, int fieldNumber, int payloadLength)
    {
        WriteTag(output, fieldNumber, WireType.LengthDelimited);
        WriteVarint(output, (ulong)payloadLength);
    }

    public static void WriteFixed64Field(IBufferWriter<byte> output, int fieldNumber, ulong value)
    {
        ArgumentNullException.ThrowIfNull(output);
        WriteTag(output, fieldNumber, WireType.Fixed64);
        BinaryPrimitives.WriteUInt64LittleEndian(output.GetSpan(8), value);
        output.Advance(8);
    }
}
