using Microsoft.Extensions.Time.Testing;
using SensorPipeline.Core.Readings;
using SensorPipeline.Functions.DeviceStates;

namespace SensorPipeline.Functions.Tests;

/// <summary>The pending device states on a fake clock: coalescing, when a state is due, and the mark's instant.</summary>
[Trait("Category", "Fast")]
public sealed class PendingDeviceStatesTests
{
    private static readonly TimeSpan W = TimeSpan.FromSeconds(5);
    private readonly FakeTimeProvider _clock = new(new DateTimeOffset(2026, 11, 26, 12, 0, 0, TimeSpan.Zero));

    [Fact]
    public void Add_OlderStateAfterNewer_KeepsTheNewestOnePerDevice()
    {
        var pending = new PendingDeviceStates(_clock);
        AddInOneInvocation(pending, State("a", 2), State("b", 1));

        AddInOneInvocation(pending, State("a", 1), State("b", 3));

        var due = pending.TakeDue(W, all: true);
        Assert.Equal(2, pending.Count);
        Assert.Equal(["a:2", "b:3"], due.Select(d => $"{d.State.DeviceId}:{int.Parse(d.State.Version, System.Globalization.CultureInfo.InvariantCulture)}").Order());
    }

    [Fact]
    public void TakeDue_BeforeAndAfterW_TakesAStateOnceItsFirstReadingIsWOld()
    {
        var pending = new PendingDeviceStates(_clock);
        AddInOneInvocation(pending, State("a", 1));

        _clock.Advance(TimeSpan.FromSeconds(3));
        AddInOneInvocation(pending, State("a", 2)); // newer, but the device has been waiting since the first reading

        _clock.Advance(TimeSpan.FromSeconds(1.9));
        Assert.Empty(pending.TakeDue(W, all: false));
        _clock.Advance(TimeSpan.FromSeconds(0.1));
        var due = Assert.Single(pending.TakeDue(W, all: false));
        Assert.Equal(Version(2), due.State.Version);
        Assert.Empty(pending.TakeDue(W, all: false)); // in flight: not taken twice
    }

    [Fact]
    public void Finish_WrittenAndNothingNewer_RemovesTheDeviceAndMovesTheInstantToNow()
    {
        var (pending, started) = OneStateWOld();
        var due = Assert.Single(pending.TakeDue(W, all: false));
        Assert.Equal(started, pending.StoredBefore());

        pending.Finish(due.State, durable: true);

        Assert.Equal(0, pending.Count);
        Assert.Equal(_clock.GetUtcNow().ToUnixTimeMilliseconds(), pending.StoredBefore());
    }

    [Fact]
    public void Finish_WriteFailed_KeepsTheStatePendingFromItsFirstReading()
    {
        var (pending, started) = OneStateWOld();
        pending.Finish(Assert.Single(pending.TakeDue(W, all: false)).State, durable: false);

        Assert.Equal(1, pending.Count);
        Assert.Equal(started, pending.StoredBefore());
        Assert.Single(pending.TakeDue(W, all: false)); // taken again next round
    }

    [Fact]
    public void Finish_NewerArrivedDuringTheWrite_KeepsTheNewerPendingFromItsOwnReading()
    {
        var (pending, _) = OneStateWOld();
        var inFlight = Assert.Single(pending.TakeDue(W, all: false));
        _clock.Advance(TimeSpan.FromSeconds(1));
        var newerStarted = _clock.GetUtcNow().ToUnixTimeMilliseconds();
        AddInOneInvocation(pending, State("a", 2));

        _clock.Advance(TimeSpan.FromSeconds(1));
        pending.Finish(inFlight.State, durable: true);

        Assert.Equal(newerStarted, pending.StoredBefore());
        Assert.Empty(pending.TakeDue(W, all: false)); // its own W counts from its reading
        _clock.Advance(TimeSpan.FromSeconds(4));
        Assert.Equal(Version(2), Assert.Single(pending.TakeDue(W, all: false)).State.Version);
    }

    [Fact]
    public void StoredBefore_InvocationStillWritingItsReadings_IsItsStart()
    {
        var pending = new PendingDeviceStates(_clock);
        var started = _clock.GetUtcNow().ToUnixTimeMilliseconds();
        var scope = pending.Open();
        _clock.Advance(TimeSpan.FromSeconds(2));

        Assert.Equal(started, pending.StoredBefore()); // its readings may be stored already, their states not yet pending

        pending.Add(scope, []);
        scope.Dispose();
        Assert.Equal(_clock.GetUtcNow().ToUnixTimeMilliseconds(), pending.StoredBefore());
    }

    /// <summary>Device a's state added at the clock's current instant (returned), the clock then moved on by W: it is due.</summary>
    private (PendingDeviceStates Pending, long AddedAt) OneStateWOld()
    {
        var pending = new PendingDeviceStates(_clock);
        var addedAt = _clock.GetUtcNow().ToUnixTimeMilliseconds();
        AddInOneInvocation(pending, State("a", 1));
        _clock.Advance(W);
        return (pending, addedAt);
    }

    /// <summary>One invocation's device states, added as the processor adds them: inside the invocation's scope.</summary>
    private static void AddInOneInvocation(PendingDeviceStates pending, params PendingState[] states)
    {
        using var scope = pending.Open();
        pending.Add(scope, states);
    }

    private static PendingState State(string device, int sequence) =>
        new(device, Version(sequence), [], new StateRefusal("weather-processor", new SourcePosition("0", 1, 0), 0, [], device + ":" + sequence));

    private static string Version(int sequence) => sequence.ToString("D20", System.Globalization.CultureInfo.InvariantCulture);
}
