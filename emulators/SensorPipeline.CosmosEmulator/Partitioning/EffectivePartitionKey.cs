using System.Buffers;
using System.Buffers.Binary;
using System.Text.Json;

namespace SensorPipeline.CosmosEmulator.Partitioning;

/// <summary>
/// The effective partition key (EPK) of a partition key value under hash version 2, as the SDKs compute it to route an
/// item to its partition key range: each component is written as a type marker and its bytes (a string: 0x08, its UTF-8,
/// 0xFF; a number: 0x05 and its IEEE 754 double, little-endian; true 0x03, false 0x02, null 0x01, a missing value
/// 0x00); the MurmurHash3 x64-128 of all of them (seed 0) is written big-endian with the two top bits cleared, as 32
/// upper-case hex digits. The key space runs from "" to "FF" (exclusive).
/// </summary>
internal static class EffectivePartitionKey
{
    /// <summary>The EPK of a canonical key (the JSON array <c>["dev-1"]</c>, <c>[5]</c>, <c>[null]</c>, <c>[{}]</c>).</summary>
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

        var (low, high) = MurmurHash3.Hash128(buffer.WrittenSpan);
        Span<byte> hash = stackalloc byte[16];
        BinaryPrimitives.WriteUInt64BigEndian(hash, high);
        BinaryPrimitives.WriteUInt64BigEndian(hash[8..], low);
        hash[0] &= 0x3F;
        return Convert.ToHexString(hash);
    }

    private static void Write(ArrayBufferWriter<byte> buffer, JsonElement component)
    {
        switch (component.ValueKind)
        {
            case JsonValueKind.String:
                buffer.Write([(byte)0x08]);
                buffer.Write(System.Text.Encoding.UTF8.GetBytes(component.GetString()!));
                buffer.Write([(byte)0xFF]);
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
