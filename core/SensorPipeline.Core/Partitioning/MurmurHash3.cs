using System.Buffers.Binary;
using System.Numerics;

namespace SensorPipeline.Core.Partitioning;

/// <summary>MurmurHash3, x64 128-bit variant (Austin Appleby's public-domain algorithm): the hash the Cosmos DB SDKs
/// apply to a partition key under hash version 2.</summary>
internal static class MurmurHash3
{
    private const ulong C1 = 0x87c37b91114253d5;
    private const ulong C2 = 0x4cf5ad432745937f;

    /// <summary>The two 64-bit halves of the hash of <paramref name="data"/> with seed 0.</summary>
    public static (ulong Low, ulong High) Hash128(ReadOnlySpan<byte> data)
    {
        ulong h1 = 0, h2 = 0;
        var blocks = data.Length / 16;
        for (var i = 0; i < blocks; i++)
        {
            var k1 = BinaryPrimitives.ReadUInt64LittleEndian(data[(i * 16)..]);
            var k2 = BinaryPrimitives.ReadUInt64LittleEndian(data[((i * 16) + 8)..]);
            h1 ^= MixK1(k1);
            h1 = (BitOperations.RotateLeft(h1, 27) + h2) * 5 + 0x52dce729;
            h2 ^= MixK2(k2);
            h2 = (BitOperations.RotateLeft(h2, 31) + h1) * 5 + 0x38495ab5;
        }

        var tail = data[(blocks * 16)..];
        ulong t1 = 0, t2 = 0;
        for (var i = tail.Length - 1; i >= 8; i--)
        {
            t2 = (t2 << 8) | tail[i];
        }

        for (var i = Math.Min(tail.Length, 8) - 1; i >= 0; i--)
        {
            t1 = (t1 << 8) | tail[i];
        }

        if (tail.Length > 8)
        {
            h2 ^= MixK2(t2);
        }

        if (tail.Length > 0)
        {
            h1 ^= MixK1(t1);
        }

        h1 ^= (ulong)data.Length;
        h2 ^= (ulong)data.Length;
        h1 += h2;
        h2 += h1;
        h1 = Finalize(h1);
        h2 = Finalize(h2);
        h1 += h2;
        h2 += h1;
        return (h1, h2);
    }

    private static ulong MixK1(ulong k) => BitOperations.RotateLeft(k * C1, 31) * C2;

    private static ulong MixK2(ulong k) => BitOperations.RotateLeft(k * C2, 33) * C1;

    private static ulong Finalize(ulong k)
    {
        k ^= k >> 33;
        k *= 0xff51afd7ed558ccd;
        k ^= k >> 33;
        k *= 0xc4ceb9fe1a85ec53;
        k ^= k >> 33;
        return k;
    }
}
