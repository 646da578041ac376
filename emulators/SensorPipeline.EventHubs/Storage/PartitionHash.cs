using System.Buffers;
using System.Text;

namespace SensorPipeline.EventHubs.Storage;

/// <summary>Partition key → partition: FNV-1a over the key's UTF-8 bytes, modulo the partition count.
/// Stable across restarts and machines (unlike string.GetHashCode), so a key always lands on the same partition
/// of a hub with the same partition count. It is not Azure's own mapping, which no client may rely on either.</summary>
internal static class PartitionHash
{
    public static int Partition(string key, int partitionCount)
    {
        var max = Encoding.UTF8.GetMaxByteCount(key.Length);
        byte[]? rented = null;
        var bytes = max <= 256 ? stackalloc byte[256] : (rented = ArrayPool<byte>.Shared.Rent(max));
        try
        {
            var length = Encoding.UTF8.GetBytes(key, bytes);
            var hash = 2166136261u;
            foreach (var b in bytes[..length])
            {
                hash = (hash ^ b) * 16777619u;
            }

            return (int)(hash % (uint)partitionCount);
        }
        finally
        {
            if (rented is not null)
            {
                ArrayPool<byte>.Shared.Return(rented);
            }
        }
    }
}
