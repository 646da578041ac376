using System.Buffers.Binary;

namespace SensorPipeline.CosmosEmulator.Batch;

/// <summary>
/// The constants and primitive encodings of the HybridRow rows the Cosmos DB SDKs use for batch requests and
/// responses: a 5-byte header (version, schema id), a schematized fragment (presence bits, fixed columns, then the
/// present variable columns as length-prefixed values) and sparse fields (type code, path token, value) to the end
/// of the row. The layouts are the SDK's batch schema compiled by the HybridRow rules; README.md gives the map.
/// </summary>
internal static class HybridRowFormat
{
    /// <summary>The only HybridRow format version (the row's first byte; the SDK tests it to tell HybridRow from JSON).</summary>
    public const byte Version1 = 0x81;

    /// <summary>Version byte plus little-endian int32 schema id.</summary>
    public const int HeaderSize = 5;

    // RecordIO system schemas (HybridRow's SystemSchema.json) and the SDK's batch schemas (HybridRowBatchSchemas.json).
    public const int SegmentSchemaId = 2147473648;
    public const int RecordSchemaId = 2147473649;
    public const int BatchOperationSchemaId = 2145473648;
    public const int BatchResultSchemaId = 2145473649;

    // Layout codes: the type byte in front of each sparse field.
    public const byte CodeNull = 1;
    public const byte CodeBooleanFalse = 2;
    public const byte CodeBoolean = 3;
    public const byte CodeInt8 = 5;
    public const byte CodeInt16 = 6;
    public const byte CodeInt32 = 7;
    public const byte CodeInt64 = 8;
    public const byte CodeUInt8 = 9;
    public const byte CodeUInt16 = 10;
    public const byte CodeUInt32 = 11;
    public const byte CodeUInt64 = 12;
    public const byte CodeVarInt = 13;
    public const byte CodeVarUInt = 14;
    public const byte CodeFloat32 = 15;
    public const byte CodeFloat64 = 16;
    public const byte CodeDecimal = 17;
    public const byte CodeDateTime = 18;
    public const byte CodeGuid = 19;
    public const byte CodeUtf8 = 20;
    public const byte CodeBinary = 21;
    public const byte CodeFloat128 = 22;
    public const byte CodeUnixDateTime = 23;
    public const byte CodeMongoDbObjectId = 24;

    /// <summary>Writes the 5-byte row header.</summary>
    public static void WriteHeader(Span<byte> destination, int schemaId)
    {
        destination[0] = Version1;
        BinaryPrimitives.WriteInt32LittleEndian(destination[1..], schemaId);
    }

    /// <summary>Reads a row header, failing unless it is a version-1 row of <paramref name="expectedSchemaId"/>.</summary>
    public static void ExpectHeader(ReadOnlySpan<byte> row, int expectedSchemaId, string what)
    {
        if (row.Length < HeaderSize)
        {
            throw new BatchFormatException($"{what}: {row.Length} bytes, shorter than a HybridRow header.");
        }

        if (row[0] != Version1)
        {
            throw new BatchFormatException($"{what}: HybridRow version byte 0x{row[0]:X2}, expected 0x{Version1:X2}.");
        }

        var schemaId = BinaryPrimitives.ReadInt32LittleEndian(row[1..]);
        if (schemaId != expectedSchemaId)
        {
            throw new BatchFormatException($"{what}: schema id {schemaId}, expected {expectedSchemaId}.");
        }
    }

    /// <summary>Reads a 7-bit-group little-endian unsigned varint (high bit = more bytes follow).</summary>
    public static ulong ReadVarUInt(ReadOnlySpan<byte> source, ref int offset, string what)
    {
        ulong value = 0;
        for (var shift = 0; shift < 64; shift += 7)
        {
            if (offset >= source.Length)
            {
                throw new BatchFormatException($"{what}: the row ends inside a length prefix.");
            }

            var b = source[offset++];
            value |= (ulong)(b & 0x7F) << shift;
            if (b < 0x80)
            {
                return value;
            }
        }

        throw new BatchFormatException($"{what}: a length prefix runs past ten bytes.");
    }

    /// <summary>Reads a length-prefixed value (variable column, or sparse utf8/binary) and returns its bytes.</summary>
    public static ReadOnlySpan<byte> ReadLengthPrefixed(ReadOnlySpan<byte> source, ref int offset, string what)
    {
        var length = ReadVarUInt(source, ref offset, what);
        if (length > (ulong)(source.Length - offset))
        {
            throw new BatchFormatException($"{what}: a value of {length} bytes runs past the end of its row.");
        }

        var value = source.Slice(offset, (int)length);
        offset += (int)length;
        return value;
    }

    /// <summary>Number of bytes <see cref="WriteVarUInt"/> uses for <paramref name="value"/>.</summary>
    public static int VarUIntSize(ulong value)
    {
        var size = 1;
        while (value >= 0x80)
        {
            value >>= 7;
            size++;
        }

        return size;
    }

    /// <summary>Writes a 7-bit-group unsigned varint; returns the bytes written.</summary>
    public static int WriteVarUInt(Span<byte> destination, ulong value)
    {
        var i = 0;
        while (value >= 0x80)
        {
            destination[i++] = unchecked((byte)(value | 0x80));
            value >>= 7;
        }

        destination[i++] = (byte)value;
        return i;
    }

    /// <summary>
    /// Size of a sparse field's value for a primitive layout code (-1: length-prefixed, -2: varint), or null for a
    /// scope or unknown code, which a batch row never carries.
    /// </summary>
    public static int? PrimitiveValueSize(byte code) => code switch
    {
        CodeNull or CodeBooleanFalse or CodeBoolean => 0,
        CodeInt8 or CodeUInt8 => 1,
        CodeInt16 or CodeUInt16 => 2,
        CodeInt32 or CodeUInt32 or CodeFloat32 => 4,
        CodeInt64 or CodeUInt64 or CodeFloat64 or CodeDateTime or CodeUnixDateTime => 8,
        CodeMongoDbObjectId => 12,
        CodeDecimal or CodeGuid or CodeFloat128 => 16,
        CodeUtf8 or CodeBinary => -1,
        CodeVarInt or CodeVarUInt => -2,
        _ => null,
    };
}
