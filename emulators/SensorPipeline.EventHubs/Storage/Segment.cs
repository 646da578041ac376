using System.Globalization;

namespace SensorPipeline.EventHubs.Storage;

/// <summary>One segment file of a partition (<c>{base sequence:D20}.log</c>) and its index of record positions
/// (<c>.idx</c>, one little-endian int32 per record). The writer appends; readers see <see cref="Count"/>,
/// <see cref="Length"/> and <see cref="Positions"/> through volatile reads, and the partition's head bounds what is visible.</summary>
internal sealed class Segment
{
    private int[] _positions;
    private int _count;
    private int _pendingCount;
    private long _length;
    private long _lastTicks;

    public Segment(string directory, long baseSequence, long baseOffset, int[] positions, int count, long length, long lastTicks)
    {
        BaseSequence = baseSequence;
        BaseOffset = baseOffset;
        LogPath = Path.Combine(directory, FileName(baseSequence));
        IndexPath = Path.ChangeExtension(LogPath, ".idx");
        _positions = positions.Length == 0 ? new int[1024] : positions;
        _count = _pendingCount = count;
        _length = length;
        _lastTicks = lastTicks;
    }

    public long BaseSequence { get; }

    /// <summary>The partition offset of this segment's first record; offsets run on across segments.</summary>
    public long BaseOffset { get; }

    public string LogPath { get; }

    public string IndexPath { get; }

    public int Count => Volatile.Read(ref _count);

    public long Length => Volatile.Read(ref _length);

    public int[] Positions => Volatile.Read(ref _positions);

    public long LastTicks => Volatile.Read(ref _lastTicks);

    /// <summary>Writer only: records added, published or not.</summary>
    public int PendingCount => _pendingCount;

    /// <summary>The sequence number after this segment's last record.</summary>
    public long NextSequence => BaseSequence + Count;

    /// <summary>The partition offset of the byte at <paramref name="position"/> in this file.</summary>
    public long OffsetOf(long position) => BaseOffset + position - RecordFormat.SegmentHeaderSize;

    public static string FileName(long baseSequence) => baseSequence.ToString("D20", CultureInfo.InvariantCulture) + ".log";

    public static bool TryParseFileName(string path, out long baseSequence) =>
        long.TryParse(Path.GetFileNameWithoutExtension(path), NumberStyles.None, CultureInfo.InvariantCulture, out baseSequence);

    /// <summary>Writer only: records the position of the next record (not yet visible).</summary>
    public void AddPosition(int position)
    {
        var positions = _positions;
        if (_pendingCount == positions.Length)
        {
            // Grow by copying: a reader holding the old array still finds every entry below the published count.
            var grown = new int[positions.Length * 2];
            positions.CopyTo(grown, 0);
            Volatile.Write(ref _positions, grown);
            positions = grown;
        }

        positions[_pendingCount++] = position;
    }

    /// <summary>Writer only: publishes the records added so far, once their bytes are written to the file.</summary>
    public void Publish(long length, long lastTicks)
    {
        Volatile.Write(ref _lastTicks, lastTicks);
        Volatile.Write(ref _length, length);
        Volatile.Write(ref _count, _pendingCount);
    }

    /// <summary>Writer only: forgets records added after the first <paramref name="count"/> (a group whose write failed;
    /// readers never saw them, the partition's head bounds what they read).</summary>
    public void Rollback(int count, long length, long lastTicks)
    {
        _pendingCount = count;
        Volatile.Write(ref _count, count);
        Volatile.Write(ref _length, length);
        Volatile.Write(ref _lastTicks, lastTicks);
    }

    /// <summary>The end position of record <paramref name="index"/> + <paramref name="count"/> - 1 (start of the next one, or the file end).</summary>
    public long EndOf(int index, int count)
    {
        var end = index + count;
        return end < Count ? Positions[end] : Length;
    }
}
