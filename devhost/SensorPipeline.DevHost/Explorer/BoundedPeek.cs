using SensorPipeline.EventHubs;

namespace SensorPipeline.DevHost.Explorer;

/// <summary>Reads up to <paramref name="Max"/> events from <paramref name="From"/> of a partition; never waits for
/// events that are not there yet.</summary>
public delegate ValueTask<IReadOnlyList<StoredEvent>> ReadEvents(long From, int Max, CancellationToken cancellationToken);

/// <summary>Which bound ended a peek.</summary>
public enum PeekStop
{
    /// <summary>The events asked for (or <see cref="ExplorerOptions.MaxPeekEvents"/>) were read.</summary>
    Count,

    /// <summary>The next event would have passed <see cref="ExplorerOptions.MaxPeekBytes"/>.</summary>
    Bytes,

    /// <summary><see cref="ExplorerOptions.MaxTime"/> passed.</summary>
    Time,

    /// <summary>The partition has no more events.</summary>
    End,
}

/// <summary>What a peek read, which bound ended it, and where the next peek goes on.</summary>
public sealed record PeekResult(IReadOnlyList<StoredEvent> Events, long Bytes, PeekStop StoppedBy, long NextSequenceNumber);

/// <summary>A peek bounded in count, bytes and time, read in small chunks so every bound is checked often. Time is the
/// injected <see cref="TimeProvider"/>'s: a read that does not return by the deadline is cancelled, and the peek
/// returns what it has.</summary>
public sealed class BoundedPeek(TimeProvider time)
{
    /// <summary>Events read per call of the reader.</summary>
    public const int ChunkSize = 16;

    public async Task<PeekResult> PeekAsync(ReadEvents read, long from, int requested, ExplorerOptions limits, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(read);
        ArgumentNullException.ThrowIfNull(limits);
        var wanted = Math.Clamp(requested, 1, limits.MaxPeekEvents);
        var started = time.GetTimestamp();
        using var deadline = new CancellationTokenSource(limits.MaxTime, time);
        using var linked = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, deadline.Token);
        var events = new List<StoredEvent>();
        var (bytes, next) = (0L, from);
        PeekResult Stop(PeekStop why) => new(events, bytes, why, next);
        while (events.Count < wanted)
        {
            if (time.GetElapsedTime(started) >= limits.MaxTime)
            {
                return Stop(PeekStop.Time);
            }

            IReadOnlyList<StoredEvent> chunk;
            try
            {
                chunk = await read(next, Math.Min(ChunkSize, wanted - events.Count), linked.Token);
            }
            catch (OperationCanceledException) when (deadline.IsCancellationRequested && !cancellationToken.IsCancellationRequested)
            {
                return Stop(PeekStop.Time);
            }

            if (chunk.Count == 0)
            {
                return Stop(PeekStop.End);
            }

            foreach (var e in chunk)
            {
                var size = (long)e.Body.Length + e.AmqpEnvelope.Length;
                if (events.Count > 0 && bytes + size > limits.MaxPeekBytes)
                {
                    return Stop(PeekStop.Bytes);
                }

                events.Add(e);
                (bytes, next) = (bytes + size, e.SequenceNumber + 1);
            }
        }

        return Stop(PeekStop.Count);
    }
}
