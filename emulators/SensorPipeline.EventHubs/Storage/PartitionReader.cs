namespace SensorPipeline.EventHubs.Storage;

/// <summary>Reads a partition without locks: what the head (<see cref="PartitionState"/>) makes visible, from the
/// cache of recent records when they are there (bodies are slices of it), from the segment files otherwise. A read that
/// wants more than is visible waits for the next publish, up to its wait time.</summary>
internal sealed class PartitionReader(PartitionState state, TimeProvider time, Task writerStopped)
{
    /// <summary>A file read never loads more than this at once (unless one record is larger).</summary>
    private const int MaxReadBytes = 4 * 1024 * 1024;

    public async ValueTask<IReadOnlyList<StoredEvent>> ReadAsync(long fromSequenceNumber, int minEvents, int maxEvents, TimeSpan maxWait, CancellationToken cancellationToken)
    {
        var started = time.GetTimestamp();
        while (true)
        {
            cancellationToken.ThrowIfCancellationRequested();

            // Take the signal before looking at the head, so a publish in between still wakes this reader.
            var published = state.Published;
            var head = state.Current;
            var segments = state.Segments;
            var from = Math.Max(fromSequenceNumber, segments[0].BaseSequence);
            var available = Math.Max(0, head.VisibleNext - from);
            var elapsed = time.GetElapsedTime(started);
            if (available >= minEvents || elapsed >= maxWait || writerStopped.IsCompleted)
            {
                if (available == 0)
                {
                    return [];
                }

                var events = await TryReadAsync(segments, from, (int)Math.Min(available, maxEvents), cancellationToken);
                if (events is not null)
                {
                    return events;
                }

                continue; // retention deleted a segment under this read: start again from the new beginning
            }

            await WaitForPublishAsync(published, maxWait - elapsed, cancellationToken);
        }
    }

    private async Task WaitForPublishAsync(Task published, TimeSpan timeout, CancellationToken cancellationToken)
    {
        using var stopDelay = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var delay = Task.Delay(timeout, time, stopDelay.Token);
        await Task.WhenAny(published, delay);
        await stopDelay.CancelAsync();
    }

    /// <summary>Reads <paramref name="count"/> visible events from <paramref name="from"/>; null when a segment file
    /// vanished (retention) during the read.</summary>
    private async ValueTask<List<StoredEvent>?> TryReadAsync(Segment[] segments, long from, int count, CancellationToken cancellationToken)
    {
        var events = new List<StoredEvent>(count);
        var sequence = from;
        while (events.Count < count)
        {
            var segment = segments[FindSegment(segments, sequence)];
            var index = (int)(sequence - segment.BaseSequence);
            var wanted = Math.Min(count - events.Count, segment.Count - index);
            if (wanted <= 0)
            {
                throw new InvalidOperationException($"Partition {state.Hub}/{state.PartitionId}: sequence number {sequence} is visible but not in any segment.");
            }

            var position = segment.Positions[index];
            var decoder = new RecordDecoder(state.PartitionId, segment.BaseOffset - RecordFormat.SegmentHeaderSize);
            if (state.Cache.Find(segment, position) is { } chunk)
            {
                // Zero copy: bodies are slices of the cache chunk.
                var local = (int)(position - chunk.Start);
                var end = chunk.Length;
                for (; wanted > 0 && local < end; wanted--, sequence++)
                {
                    local += decoder.Decode(chunk.Data, local, chunk.Start + local, out var stored);
                    events.Add(stored);
                }

                continue;
            }

            var read = await ReadFromFileAsync(segment, index, wanted, decoder, events, cancellationToken);
            if (read < 0)
            {
                return null;
            }

            sequence += read;
        }

        return events;
    }

    private async ValueTask<int> ReadFromFileAsync(Segment segment, int index, int wanted, RecordDecoder decoder, List<StoredEvent> events, CancellationToken cancellationToken)
    {
        var start = segment.Positions[index];
        var end = segment.EndOf(index, wanted);
        while (wanted > 1 && end - start > MaxReadBytes)
        {
            wanted /= 2;
            end = segment.EndOf(index, wanted);
        }

        var buffer = new byte[end - start];
        try
        {
            using var handle = File.OpenHandle(segment.LogPath, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
            var filled = 0;
            while (filled < buffer.Length)
            {
                var n = await RandomAccess.ReadAsync(handle, buffer.AsMemory(filled), start + filled, cancellationToken);
                if (n == 0)
                {
                    throw new InvalidDataException($"{segment.LogPath}: ends at byte {start + filled}, before record {segment.BaseSequence + index + wanted - 1} ends.");
                }

                filled += n;
            }
        }
        catch (FileNotFoundException) when (segment != state.Segments[^1])
        {
            // Retention deleted this sealed segment after the reader chose it; the caller retries (not an error).
            return -1;
        }

        var local = 0;
        for (var i = 0; i < wanted; i++)
        {
            // Data from disk is checked again (CRC and sequence): a corrupt file must not become a wrong event.
            var expected = segment.BaseSequence + index + i;
            if (RecordFormat.Validate(buffer.AsSpan(local), expected) == 0)
            {
                throw new InvalidDataException($"{segment.LogPath}: the record of sequence number {expected} at byte {start + local} is corrupt.");
            }

            local += decoder.Decode(buffer, local, start + local, out var stored);
            events.Add(stored);
        }

        return wanted;
    }

    private static int FindSegment(Segment[] segments, long sequence)
    {
        int low = 0, high = segments.Length - 1;
        while (low < high)
        {
            var mid = (low + high + 1) / 2;
            if (segments[mid].BaseSequence <= sequence)
            {
                low = mid;
            }
            else
            {
                high = mid - 1;
            }
        }

        return low;
    }

    /// <summary>The sequence number of the first visible event whose offset is at least <paramref name="offset"/>
    /// (the next one to be written when none is); the oldest retained event when the offset is older than retention.
    /// Offsets are byte positions, so an offset between two events finds the later one.</summary>
    public long SequenceAtOrAfterOffset(long offset)
    {
        var head = state.Current;
        var segments = state.Segments;
        for (var s = 0; s < segments.Length; s++)
        {
            var segment = segments[s];
            var visible = (int)Math.Clamp(head.VisibleNext - segment.BaseSequence, 0, segment.Count);
            if (visible == 0 || segment.OffsetOf(segment.Positions[visible - 1]) < offset)
            {
                continue;
            }

            var positions = segment.Positions;
            int low = 0, high = visible - 1;
            while (low < high)
            {
                var mid = (low + high) / 2;
                if (segment.OffsetOf(positions[mid]) >= offset)
                {
                    high = mid;
                }
                else
                {
                    low = mid + 1;
                }
            }

            return segment.BaseSequence + low;
        }

        return head.VisibleNext;
    }
}
