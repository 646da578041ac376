using System.Numerics;
using System.Runtime.InteropServices;

namespace SensorPipeline.Emulators.Common;

/// <summary>The record checksum of the emulators' durable logs.</summary>
public static class Crc32C
{
    /// <summary>CRC-32C (Castagnoli) of <paramref name="data"/>, with the hardware instruction where the CPU has one.</summary>
    public static uint Compute(ReadOnlySpan<byte> data)
    {
        var crc = 0xFFFFFFFFu;
        var longs = MemoryMarshal.Cast<byte, ulong>(data);
        foreach (var value in longs)
        {
            crc = BitOperations.Crc32C(crc, value);
        }

        foreach (var value in data[(longs.Length * 8)..])
        {
            crc = BitOperations.Crc32C(crc, value);
        }

        return ~crc;
    }
}
