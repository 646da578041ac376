using Microsoft.Extensions.Time.Testing;
using SensorPipeline.EventHubs;

namespace SensorPipeline.Explorer.Tests;

/// <summary>Every peek ends at the first of its bounds — count, bytes, time — with time the injected clock's, never the
/// wall clock's: a read that never returns is cancelled when the fake clock passes the bound.</summary>
public sealed class BoundedPeekTests
{
    private readonly FakeTimeProvider _time = new(DateTimeOffset.UnixEpoch);

    private static StoredEvent Event(long sequence, int size) =>
        new(sequence, sequence * 100, DateTimeOffset.UnixEpoch, null, new byte[size], new Dictionary<string, object?>(), "0");

    /// <summary>A partition of <paramref name="total"/> events of <paramref name="size"/> bytes each.</summary>
    private static ReadEvents Partition(int total, int size, Action? eachRead = null) => (from, max, _) =>
    {
        eachRead?.Invoke();
        IReadOnlyList<StoredEvent> events = [.. Enumerable.Range(0, (int)Math.Max(0, Math.Min(max, total - from))).Select(i => Event(from + i, size))];
        return ValueTask.FromResult(events);
    };

    [Fact]
    public async Task PeekAsync_MoreEventsThanAsked_StopsAtCount()
    {
        var result = await new BoundedPeek(_time).PeekAsync(Partition(1000, 10), 5, 40, new ExplorerOptions(), CancellationToken.None);

        Assert.Equal(PeekStop.Count, result.StoppedBy);
        Assert.Equal(40, result.Events.Count);
        Assert.Equal(5, result.Events[0].SequenceNumber);
        Assert.Equal(45, result.NextSequenceNumber);
    }

    [Fact]
    public async Task PeekAsync_AskedPastMaxPeekEvents_ClampedToTheBound()
    {
        var result = await new BoundedPeek(_time).PeekAsync(Partition(5000, 1), 0, 1_000_000, new ExplorerOptions { MaxPeekEvents = 30 }, CancellationToken.None);

        Assert.Equal(PeekStop.Count, result.StoppedBy);
        Assert.Equal(30, result.Events.Count);
    }

    [Fact]
    public async Task PeekAsync_FewerEventsThanAsked_StopsAtEnd()
    {
        var result = await new BoundedPeek(_time).PeekAsync(Partition(7, 10), 0, 50, new ExplorerOptions(), CancellationToken.None);

        Assert.Equal(PeekStop.End, result.StoppedBy);
        Assert.Equal(7, result.Events.Count);
    }

    [Fact]
    public async Task PeekAsync_BodiesPastByteBound_StopsBeforeTheEventThatWouldPassIt()
    {
        const int size = 300 * 1024;
        var limits = new ExplorerOptions { MaxPeekBytes = 1024 * 1024, MaxPeekEvents = 100 };

        var result = await new BoundedPeek(_time).PeekAsync(Partition(100, size), 0, 100, limits, CancellationToken.None);

        Assert.Equal(PeekStop.Bytes, result.StoppedBy);
        Assert.Equal(3, result.Events.Count);
        Assert.Equal(3L * size, result.Bytes);
        Assert.Equal(3, result.NextSequenceNumber);
    }

    [Fact]
    public async Task PeekAsync_ReadsTakeInjectedTime_StopsAtTimeBound()
    {
        var limits = new ExplorerOptions { MaxTime = TimeSpan.FromSeconds(5), MaxPeekEvents = 1000 };

        // Each read of a chunk takes 2 s of the fake clock: after the third, 6 s have passed.
        var result = await new BoundedPeek(_time).PeekAsync(Partition(10_000, 1, () => _time.Advance(TimeSpan.FromSeconds(2))), 0, 1000, limits, CancellationToken.None);

        Assert.Equal(PeekStop.Time, result.StoppedBy);
        Assert.Equal(3 * BoundedPeek.ChunkSize, result.Events.Count);
    }

    [Fact]
    public async Task PeekAsync_ReadNeverReturns_CancelledWhenInjectedClockPassesBound()
    {
        var limits = new ExplorerOptions { MaxTime = TimeSpan.FromSeconds(5) };
        var reading = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        ReadEvents hangs = async (_, _, cancellationToken) =>
        {
            reading.TrySetResult();
            await new TaskCompletionSource().Task.WaitAsync(cancellationToken); // only the deadline ends it
            return [];
        };

        var peek = new BoundedPeek(_time).PeekAsync(hangs, 0, 10, limits, CancellationToken.None);
        await reading.Task.WaitAsync(TimeSpan.FromSeconds(30));
        Assert.False(peek.IsCompleted);
        _time.Advance(TimeSpan.FromSeconds(5));
        var result = await peek.WaitAsync(TimeSpan.FromSeconds(30));

        Assert.Equal(PeekStop.Time, result.StoppedBy);
        Assert.Empty(result.Events);
    }
}
