using System.Buffers.Binary;
using System.Security.Cryptography;

namespace SensorPipeline.CosmosEmulator.Documents;

/// <summary>Resource ids (<c>_rid</c>) in the service's layout, which the SDKs parse: a database is 4 bytes, a
/// container 8 (the database's 4, then 4 with the top bit set), a document or partition key range 16 (the container's 8,
/// then 8 whose last byte's high nibble says which: 0 document, 5 partition key range); base64 with '/' as '-'.</summary>
internal static class ResourceIds
{
    public static string NewDatabase()
    {
        Span<byte> bytes = stackalloc byte[4];
        BinaryPrimitives.WriteUInt32BigEndian(bytes, (uint)RandomNumberGenerator.GetInt32(1, int.MaxValue));
        return Encode(bytes);
    }

    public static string NewContainer(string databaseRid)
    {
        Span<byte> bytes = stackalloc byte[8];
        Decode(databaseRid, bytes[..4]);
        BinaryPrimitives.WriteUInt32BigEndian(bytes[4..], (uint)RandomNumberGenerator.GetInt32(1, int.MaxValue) | 0x8000_0000u);
        return Encode(bytes);
    }

    public static string NewDocument(string containerRid)
    {
        Span<byte> bytes = stackalloc byte[16];
        Decode(containerRid, bytes[..8]);
        Random.Shared.NextBytes(bytes[8..15]);
        bytes[15] = 0;
        return Encode(bytes);
    }

    public static string PartitionKeyRange(string containerRid, int rangeId)
    {
        Span<byte> bytes = stackalloc byte[16];
        Decode(containerRid, bytes[..8]);
        BinaryPrimitives.WriteInt32LittleEndian(bytes[8..], rangeId);
        bytes[12..15].Clear();
        bytes[15] = 0x50;
        return Encode(bytes);
    }

    private static string Encode(ReadOnlySpan<byte> bytes) => Convert.ToBase64String(bytes).Replace('/', '-');

    private static void Decode(string rid, Span<byte> destination)
    {
        if (!Convert.TryFromBase64String(rid.Replace('-', '/'), destination, out var written) || written != destination.Length)
        {
            throw new FormatException($"'{rid}' is not a resource id of {destination.Length} bytes.");
        }
    }
}
