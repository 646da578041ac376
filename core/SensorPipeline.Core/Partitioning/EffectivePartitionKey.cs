using System.Buffers;
using System.Buffers.Binary;
using System.Globalization;
using System.Text;
using System.Text.Json;

namespace SensorPipeline.Core.Partitioning;

/// <summary>
/// The effective partition key (EPK) of a partition key value under hash version 2, as the Cosmos DB SDKs compute it to
/// route an item to its physical partition key range: each component is written as a type marker and its bytes (a
/// string: 0x08, its UTF-8, 0xFF; a number: 0x05 and its IEEE 754 double, little-endian; true 0x03, false 0x02, null
/// 0x01, a missing value 0x00); the MurmurHash3 x64-128 of all of them (seed 0), high half first, with the two top bits
/// cleared. So an EPK is a number below 2^126, written as 32 upper-case hex digits; the key space runs from "" to "FF"
/// (exclusive), and every physical range is one contiguous interval of it, also after splits. Defined once here: the
/// splitter routes devices by it (<see cref="Splitting.DevicePartitioner"/>) and the local Cosmos DB emulator places
/// documents in its ranges by it.
/// </summary>
public static class EffectivePartitionKey
{
    private const byte StringMarker = 0x08;
    private const byte StringEnd = 0xFF;
    private const int StackLimit = 256;
    private static readonly UInt128 Mask = (UInt128.One << 126) - 1;

    /// <summary>The EPK of a partition key that is one string, from its UTF-8 bytes (a device id): no allocation.</summary>
    public static UInt128 OfString(ReadOnlySpan<byte> utf8)
    {
        var length = utf8.Length + 2;
        byte[]? rented = null;
        var typed = length <= StackLimit ? stackalloc byte[StackLimit] : (rented = ArrayPool<byte>.Shared.Rent(length));
        utf8.CopyTo(typed[1..]);
        var epk = OfStringComponent(typed, utf8.Length);
        if (rented is not null)
        {
            ArrayPool<byte>.Shared.Return(rented);
        }

        return epk;
    }

    /// <summary>The EPK of a partition key that is one string held as a .NET string (a device id in a pending
    /// document): its UTF-8 is written straight after the type marker, no allocation.</summary>
    public static UInt128 OfString(string value)
    {
        ArgumentNullException.ThrowIfNull(value);
        var length = Encoding.UTF8.GetMaxByteCount(value.Length) + 2;
        byte[]? rented = null;
        var typed = length <= StackLimit ? stackalloc byte[StackLimit] : (rented = ArrayPool<byte>.Shared.Rent(length));
        var epk = OfStringComponent(typed, Encoding.UTF8.GetBytes(value, typed[1..]));
        if (rented is not null)
        {
            ArrayPool<byte>.Shared.Return(rented);
        }

        return epk;
    }

    /// <summary>Frames the <paramref name="utf8Length"/> bytes at <c>typed[1..]</c> as a string component (its type
    /// marker before, its end marker after) and hashes them.</summary>
    private static UInt128 OfStringComponent(Span<byte> typed, int utf8Length)
    {
        typed[0] = StringMarker;
        typed[utf8Length + 1] = StringEnd;
        return OfTypedBytes(typed[..(utf8Length + 2)]);
    }

    /// <summary>The EPK of a canonical key (the JSON array <c>["dev-1"]</c>, <c>[5]</c>, <c>[null]</c>, <c>[{}]</c>), as
    /// 32 hex digits.</summary>
    public static string Of(string canonicalKey)
    {
        var buffer = new ArrayBufferWriter<byte>(64);
        using (var document = JsonDocument.Parse(canonicalKey))
        {
            foreach (var component in document.RootElement.EnumerateArray())
            {
                Write(buffer, component);
            }
        }

        return ToHex(OfTypedBytes(buffer.WrittenSpan));
    }

    /// <summary>32 upper-case hex digits, the form the service's range bounds take.</summary>
    public static string ToHex(UInt128 epk) => epk.ToString("X32", CultureInfo.InvariantCulture);

    /// <summary>Which of <paramref name="count"/> equal slices of the key space holds <paramref name="epk"/>:
    /// ⌊EPK × count / 2^126⌋, exact (the product is taken in two halves, as it exceeds 128 bits).</summary>
    public static int SliceOf(UInt128 epk, int count)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(count, 1);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(epk, Mask);
        var high = (ulong)(epk >> 64);
        var low = (ulong)epk;
        var scaled = ((UInt128)high * (uint)count) + (((UInt128)low * (uint)count) >> 64);
        return (int)(scaled >> 62);
    }

    private static UInt128 OfTypedBytes(ReadOnlySpan<byte> typed)
    {
        var (low, high) = MurmurHash3.Hash128(typed);
        return new UInt128(high, low) & Mask;
    }

    private static void Write(ArrayBufferWriter<byte> buffer, JsonElement component)
    {
        switch (component.ValueKind)
        {
            case JsonValueKind.String:
                buffer.Write([StringMarker]);
                buffer.Write(System.Text.Encoding.UTF8.GetBytes(component.GetString()!));
                buffer.Write([StringEnd]);
                break;
            case JsonValueKind.Number:
                Span<byte> number = stackalloc byte[9];
                number[0] = 0x05;
                BinaryPrimitives.WriteDoubleLittleEndian(number[1..], component.GetDouble());
                buffer.Write(number);
                break;
            case JsonValueKind.True:
                buffer.Write([(byte)0x03]);
                break;
            case JsonValueKind.False:
                buffer.Write([(byte)0x02]);
                break;
            case JsonValueKind.Null:
                buffer.Write([(byte)0x01]);
                break;
            default:
                buffer.Write([(byte)0x00]); // {}: the value is missing (PartitionKey.None)
                break;
        }
    }
}
