namespace SensorPipeline.EventHubs.Storage;

/// <summary>The most recently written records of a partition, in memory, so readers that keep up with the writer
/// never touch the disk. Chunks hold whole records that are contiguous in one segment file; a chunk is only ever
/// appended to, so bodies handed out as slices of it stay valid after it is evicted.</summary>
internal sealed class RecentCache(long budgetBytes)
{
    /// <summary>Twice the largest record, so any record fits into a fresh chunk.</summary>
    public const int ChunkSize = 4 * 1024 * 1024;

    private Chunk[] _chunks = [];

    internal sealed class Chunk(Segment segment, long start)
    {
        private int _length;

        public Segment Segment { get; } = segment;

        public long Start { get; } = start;

        public byte[] Data { get; } = new byte[ChunkSize];

        public int Length => Volatile.Read(ref _length);

        public bool Contains(Segment segment, long position) => Segment == segment && position >= Start && position < Start + Length;

        public bool TryAppend(Segment segment, long position, ReadOnlySpan<byte> record)
        {
            var length = _length;
            if (Segment != segment || Start + length != position || ChunkSize - length < record.Length)
            {
                return false;
            }

            record.CopyTo(Data.AsSpan(length));
            Volatile.Write(ref _length, length + record.Length);
            return true;
        }
    }

    /// <summary>Writer only: caches one record written at <paramref name="position"/> of <paramref name="segment"/>.</summary>
    public void Append(Segment segment, long position, ReadOnlySpan<byte> record)
    {
        if (budgetBytes == 0)
        {
            return;
        }

        var chunks = _chunks;
        if (chunks.Length > 0 && chunks[^1].TryAppend(segment, position, record))
        {
            return;
        }

        var chunk = new Chunk(segment, position);
        chunk.TryAppend(segment, position, record);
        var keep = (int)Math.Max(1, (budgetBytes + ChunkSize - 1) / ChunkSize) - 1;
        var kept = chunks.Length <= keep ? chunks : chunks[^keep..];
        Volatile.Write(ref _chunks, [.. kept, chunk]);
    }

    /// <summary>The chunk holding the record at <paramref name="position"/> of <paramref name="segment"/>, if cached.</summary>
    public Chunk? Find(Segment segment, long position)
    {
        var chunks = Volatile.Read(ref _chunks);
        for (var i = chunks.Length - 1; i >= 0; i--)
        {
            if (chunks[i].Contains(segment, position))
            {
                return chunks[i];
            }
        }

        return null;
    }

    /// <summary>Writer only: forgets a deleted segment's chunks.</summary>
    public void Drop(Segment segment) => Volatile.Write(ref _chunks, _chunks.Where(c => c.Segment != segment).ToArray());
}
