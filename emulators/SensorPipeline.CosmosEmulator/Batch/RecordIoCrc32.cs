namespace SensorPipeline.CosmosEmulator.Batch;

/// <summary>
/// CRC-32 as ISO 3309 / IEEE 802.3 define it (reflected polynomial 0xEDB88320, initial and final complement): the
/// checksum in each RecordIO record header. Not CRC-32C, which the segment log uses; System.IO.Hashing is not
/// available from the package source, and a 1 KB table is all this needs.
/// </summary>
internal static class RecordIoCrc32
{
    private static readonly uint[] Table = BuildTable();

    public static uint Compute(ReadOnlySpan<byte> data)
    {
        var crc = 0xFFFFFFFFu;
        foreach (var b in data)
        {
            crc = Table[(crc ^ b) & 0xFF] ^ (crc >> 8);
        }

        return ~crc;
    }

    private static uint[] BuildTable()
    {
        var table = new uint[256];
        for (uint i = 0; i < 256; i++)
        {
            var c = i;
            for (var k = 0; k < 8; k++)
            {
                c = (c & 1) != 0 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            }

            table[i] = c;
        }

        return table;
    }
}
