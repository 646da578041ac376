using System.Buffers.Binary;
using System.Text;

namespace SensorPipeline.EventHubs.Storage;

/// <summary>Application properties as bytes: u16 count, then per entry u16 name length, name UTF-8, a type tag and
/// the value. The types are those an Event Hubs application property can carry: what the REST API produces and
/// every simple type of AMQP 1.0 (as Microsoft.Azure.Amqp decodes them), plus the .NET client's described
/// DateTimeOffset, TimeSpan and Uri. Tags are never renumbered: they are on disk.</summary>
internal static class PropertyCodec
{
    private enum Tag : byte
    {
        Null = 0,
        String = 1,
        Bool = 2,
        Int = 3,
        Long = 4,
        Double = 5,
        DateTimeOffset = 6,
        Guid = 7,
        Bytes = 8,
        SByte = 9,
        Byte = 10,
        Short = 11,
        UShort = 12,
        UInt = 13,
        ULong = 14,
        Float = 15,
        Char = 16,
        Decimal = 17,
        DateTime = 18,
        TimeSpan = 19,
        Uri = 20,
        Symbol = 21,
    }

    /// <summary>The types <see cref="Measure"/> accepts, for error messages.</summary>
    public const string SupportedTypes = "string, bool, sbyte, byte, short, ushort, int, uint, long, ulong, float, double, decimal, char, DateTime, DateTimeOffset, TimeSpan, Guid, Uri, byte[] or an AMQP symbol";

    public static int Measure(IReadOnlyDictionary<string, object?>? properties)
    {
        if (properties is null || properties.Count == 0)
        {
            return 0;
        }

        if (properties.Count > ushort.MaxValue)
        {
            throw new ArgumentException($"An event can carry at most {ushort.MaxValue} properties.", nameof(properties));
        }

        var size = 2;
        foreach (var (name, value) in properties)
        {
            var nameLength = Encoding.UTF8.GetByteCount(name);
            if (nameLength > ushort.MaxValue)
            {
                throw new ArgumentException($"Property name '{name[..32]}…' is longer than {ushort.MaxValue} bytes.", nameof(properties));
            }

            size += 2 + nameLength + 1 + value switch
            {
                null => 0,
                string s => 4 + Encoding.UTF8.GetByteCount(s),
                bool => 1,
                int => 4,
                long => 8,
                double => 8,
                DateTimeOffset => 8,
                Guid => 16,
                byte[] b => 4 + b.Length,
                ReadOnlyMemory<byte> m => 4 + m.Length,
                sbyte or byte => 1,
                short or ushort or char => 2,
                uint or float => 4,
                ulong or DateTime or TimeSpan => 8,
                decimal => 16,
                Uri u => 4 + Encoding.UTF8.GetByteCount(u.OriginalString),
                AmqpSymbolValue y => 4 + Encoding.UTF8.GetByteCount(y.Value),
                _ => throw new ArgumentException(
                    $"Property '{name}' has type {value.GetType().Name}; use {SupportedTypes}.", nameof(properties)),
            };
        }

        return size;
    }

    public static int Write(Span<byte> destination, IReadOnlyDictionary<string, object?>? properties)
    {
        if (properties is null || properties.Count == 0)
        {
            return 0;
        }

        BinaryPrimitives.WriteUInt16LittleEndian(destination, (ushort)properties.Count);
        var at = 2;
        foreach (var (name, value) in properties)
        {
            var nameLength = Encoding.UTF8.GetBytes(name, destination[(at + 2)..]);
            BinaryPrimitives.WriteUInt16LittleEndian(destination[at..], (ushort)nameLength);
            at += 2 + nameLength;
            var v = destination[(at + 1)..];
            (var tag, var length) = value switch
            {
                null => (Tag.Null, 0),
                string s => (Tag.String, WriteBlob(v, s)),
                bool b => (Tag.Bool, WriteBool(v, b)),
                int i => (Tag.Int, WriteInt(v, i)),
                long l => (Tag.Long, WriteLong(v, l)),
                double d => (Tag.Double, WriteLong(v, BitConverter.DoubleToInt64Bits(d))),
                DateTimeOffset t => (Tag.DateTimeOffset, WriteLong(v, t.UtcTicks)),
                Guid g => (Tag.Guid, WriteGuid(v, g)),
                byte[] bytes => (Tag.Bytes, WriteBlob(v, bytes)),
                ReadOnlyMemory<byte> m => (Tag.Bytes, WriteBlob(v, m.Span)),
                _ => WriteWide(v, value, name),
            };
            destination[at] = (byte)tag;
            at += 1 + length;
        }

        return at;
    }

    /// <summary>True when <paramref name="source"/> is exactly one encoded property set whose every length stays inside
    /// it and whose every tag is known: what <see cref="Read"/> needs to never read out of range. Recovery checks it
    /// (through <see cref="RecordFormat.Validate"/>), because properties are decoded only when a reader asks.</summary>
    public static bool IsWellFormed(ReadOnlySpan<byte> source)
    {
        if (source.Length < 2)
        {
            return false;
        }

        var count = BinaryPrimitives.ReadUInt16LittleEndian(source);
        var at = 2;
        for (var i = 0; i < count; i++)
        {
            if (source.Length - at < 3)
            {
                return false;
            }

            at += 2 + BinaryPrimitives.ReadUInt16LittleEndian(source[at..]);
            if (at >= source.Length)
            {
                return false;
            }

            var length = ValueLength((Tag)source[at], source[(at + 1)..]);
            if (length < 0 || length > source.Length - at - 1)
            {
                return false;
            }

            at += 1 + (int)length;
        }

        return at == source.Length;
    }

    /// <summary>The bytes a value of <paramref name="tag"/> takes at the start of <paramref name="v"/>; -1 when the tag is
    /// unknown or its length prefix does not fit.</summary>
    private static long ValueLength(Tag tag, ReadOnlySpan<byte> v) => tag switch
    {
        Tag.Null => 0,
        Tag.Bool or Tag.SByte or Tag.Byte => 1,
        Tag.Short or Tag.UShort or Tag.Char => 2,
        Tag.Int or Tag.UInt or Tag.Float => 4,
        Tag.Long or Tag.Double or Tag.ULong or Tag.TimeSpan => 8,
        Tag.DateTimeOffset or Tag.DateTime when v.Length >= 8 && BinaryPrimitives.ReadInt64LittleEndian(v) is >= 0 and <= 3_155_378_975_999_999_999 => 8,
        Tag.Guid => 16,
        Tag.Decimal when v.Length >= 16 && IsDecimalFlags(BinaryPrimitives.ReadInt32LittleEndian(v[12..])) => 16,
        Tag.String or Tag.Bytes or Tag.Uri or Tag.Symbol when v.Length >= 4 && BinaryPrimitives.ReadInt32LittleEndian(v) >= 0 => 4L + BinaryPrimitives.ReadInt32LittleEndian(v),
        _ => -1,
    };

    /// <summary>A decimal's flags word as <c>new decimal(int[])</c> accepts it: a scale of at most 28 and a sign bit.</summary>
    private static bool IsDecimalFlags(int flags) => (flags & 0x7F00FFFF) == 0 && ((flags >> 16) & 0xFF) <= 28;

    /// <summary>The types AMQP senders add beyond the REST ones.</summary>
    private static (Tag, int) WriteWide(Span<byte> v, object value, string name)
    {
        switch (value)
        {
            case sbyte x: v[0] = unchecked((byte)x); return (Tag.SByte, 1);
            case byte x: v[0] = x; return (Tag.Byte, 1);
            case short x: BinaryPrimitives.WriteInt16LittleEndian(v, x); return (Tag.Short, 2);
            case ushort x: BinaryPrimitives.WriteUInt16LittleEndian(v, x); return (Tag.UShort, 2);
            case char x: BinaryPrimitives.WriteUInt16LittleEndian(v, x); return (Tag.Char, 2);
            case uint x: BinaryPrimitives.WriteUInt32LittleEndian(v, x); return (Tag.UInt, 4);
            case float x: BinaryPrimitives.WriteSingleLittleEndian(v, x); return (Tag.Float, 4);
            case ulong x: BinaryPrimitives.WriteUInt64LittleEndian(v, x); return (Tag.ULong, 8);
            case DateTime x: BinaryPrimitives.WriteInt64LittleEndian(v, x.ToUniversalTime().Ticks); return (Tag.DateTime, 8);
            case TimeSpan x: BinaryPrimitives.WriteInt64LittleEndian(v, x.Ticks); return (Tag.TimeSpan, 8);
            case decimal x: decimal.GetBits(x, System.Runtime.InteropServices.MemoryMarshal.Cast<byte, int>(v[..16])); return (Tag.Decimal, 16);
            case Uri x: return (Tag.Uri, WriteBlob(v, x.OriginalString));
            case AmqpSymbolValue x: return (Tag.Symbol, WriteBlob(v, x.Value));
            default: throw new ArgumentException($"Property '{name}' has an unsupported type.", nameof(value));
        }
    }

    public static Dictionary<string, object?> Read(ReadOnlySpan<byte> source)
    {
        var count = BinaryPrimitives.ReadUInt16LittleEndian(source);
        var result = new Dictionary<string, object?>(count, StringComparer.Ordinal);
        var at = 2;
        for (var i = 0; i < count; i++)
        {
            var nameLength = BinaryPrimitives.ReadUInt16LittleEndian(source[at..]);
            var name = Encoding.UTF8.GetString(source.Slice(at + 2, nameLength));
            at += 2 + nameLength;
            var tag = (Tag)source[at];
            var v = source[(at + 1)..];
            (var value, var length) = tag switch
            {
                Tag.Null => (null, 0),
                Tag.String => ReadString(v),
                Tag.Bool => (v[0] != 0, 1),
                Tag.Int => (BinaryPrimitives.ReadInt32LittleEndian(v), 4),
                Tag.Long => (BinaryPrimitives.ReadInt64LittleEndian(v), 8),
                Tag.Double => (BitConverter.Int64BitsToDouble(BinaryPrimitives.ReadInt64LittleEndian(v)), 8),
                Tag.DateTimeOffset => (new DateTimeOffset(BinaryPrimitives.ReadInt64LittleEndian(v), TimeSpan.Zero), 8),
                Tag.Guid => (new Guid(v[..16]), 16),
                Tag.Bytes => ReadBytes(v),
                Tag.SByte => (unchecked((sbyte)v[0]), 1),
                Tag.Byte => (v[0], 1),
                Tag.Short => (BinaryPrimitives.ReadInt16LittleEndian(v), 2),
                Tag.UShort => (BinaryPrimitives.ReadUInt16LittleEndian(v), 2),
                Tag.Char => ((char)BinaryPrimitives.ReadUInt16LittleEndian(v), 2),
                Tag.UInt => (BinaryPrimitives.ReadUInt32LittleEndian(v), 4),
                Tag.Float => (BinaryPrimitives.ReadSingleLittleEndian(v), 4),
                Tag.ULong => (BinaryPrimitives.ReadUInt64LittleEndian(v), 8),
                Tag.DateTime => (new DateTime(BinaryPrimitives.ReadInt64LittleEndian(v), DateTimeKind.Utc), 8),
                Tag.TimeSpan => (new TimeSpan(BinaryPrimitives.ReadInt64LittleEndian(v)), 8),
                Tag.Decimal => (new decimal(System.Runtime.InteropServices.MemoryMarshal.Cast<byte, int>(v[..16])), 16),
                Tag.Uri => ReadUri(v),
                Tag.Symbol => ReadSymbol(v),
                _ => throw new InvalidDataException($"Unknown property type tag {(byte)tag} for '{name}'."),
            };
            result[name] = value;
            at += 1 + length;
        }

        return result;
    }

    private static int WriteBlob(Span<byte> v, string s)
    {
        var length = Encoding.UTF8.GetBytes(s, v[4..]);
        BinaryPrimitives.WriteInt32LittleEndian(v, length);
        return 4 + length;
    }

    private static int WriteBlob(Span<byte> v, ReadOnlySpan<byte> bytes)
    {
        BinaryPrimitives.WriteInt32LittleEndian(v, bytes.Length);
        bytes.CopyTo(v[4..]);
        return 4 + bytes.Length;
    }

    private static int WriteBool(Span<byte> v, bool b)
    {
        v[0] = b ? (byte)1 : (byte)0;
        return 1;
    }

    private static int WriteInt(Span<byte> v, int i)
    {
        BinaryPrimitives.WriteInt32LittleEndian(v, i);
        return 4;
    }

    private static int WriteLong(Span<byte> v, long l)
    {
        BinaryPrimitives.WriteInt64LittleEndian(v, l);
        return 8;
    }

    private static int WriteGuid(Span<byte> v, Guid g)
    {
        g.TryWriteBytes(v);
        return 16;
    }

    private static (object?, int) ReadString(ReadOnlySpan<byte> v)
    {
        var length = BinaryPrimitives.ReadInt32LittleEndian(v);
        return (Encoding.UTF8.GetString(v.Slice(4, length)), 4 + length);
    }

    private static (object?, int) ReadUri(ReadOnlySpan<byte> v)
    {
        var (text, length) = ReadString(v);
        return (new Uri((string)text!, UriKind.RelativeOrAbsolute), length);
    }

    private static (object?, int) ReadSymbol(ReadOnlySpan<byte> v)
    {
        var (text, length) = ReadString(v);
        return (new AmqpSymbolValue((string)text!), length);
    }

    private static (object?, int) ReadBytes(ReadOnlySpan<byte> v)
    {
        var length = BinaryPrimitives.ReadInt32LittleEndian(v);
        return (v.Slice(4, length).ToArray(), 4 + length);
    }
}
