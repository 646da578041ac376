namespace SensorPipeline.EventHubs.Storage;

internal sealed partial class PartitionLog
{
    /// <summary>A file read never loads more than this at once (unless one record is larger).</summary>
    private const int MaxReadBytes = 4 * 1024 * 1024;

    public async ValueTask<IReadOnlyList<StoredEvent>> ReadAsync(long fromSequenceNumber, int minEvents, int maxEvents, TimeSpan maxWait, CancellationToken cancellationToken)
    {
        var started = _time.GetTimestamp();
        while (true)
        {
            cancellationToken.ThrowIfCancellationRequested();

            // Take the signal before looking at the head, so a publish in between still wakes this reader.
            var published = Volatile.Read(ref _published).Task;
            var head = Volatile.Read(ref _head);
            var segments = Volatile.Read(ref _segments);
            var from = Math.Max(fromSequenceNumber, segments[0].BaseSequence);
            var available = Math.Max(0, head.VisibleNext - from);
            var elapsed = _time.GetElapsedTime(started);
            if (available >= minEvents || elapsed >= maxWait || _requests.Reader.Completion.IsCompleted)
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
        var delay = Task.Delay(timeout, _time, stopDelay.Token);
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
                throw new InvalidOperationException($"Partition {Hub}/{PartitionId}: sequence number {sequence} is visible but not in any segment.");
            }

            var position = segment.Positions[index];
            var decoder = new RecordDecoder(PartitionId, segment.BaseOffset - RecordFormat.SegmentHeaderSize);
            if (_cache.Find(segment, position) is { } chunk)
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
        catch (FileNotFoundException) when (segment != Volatile.Read(ref _segments)[^1])
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
}
