using SensorPipeline.Core.DeviceStates;
using SensorPipeline.Core.Policies;
using SensorPipeline.Core.Processing;
using SensorPipeline.Core.Splitting;

namespace SensorPipeline.Core.Tests;

/// <summary>
/// The device state of stale readings found already live: a batch redelivered after its first attempt wrote the readings
/// but died before the devices, and judged stale on its second attempt, must still give each device its state.
/// </summary>
public partial class EnvelopeProcessorTests
{
    /// <summary>Past the 5-minute max age of readings enqueued at <see cref="Now"/>.</summary>
    private static long Later => Now + 301_000;

    private static InputEvent Envelope(params (Reading Reading, long EnqueuedMs)[] readings) => Envelope(SensorKind.Weather, readings);

    /// <summary>Live flags for <paramref name="result"/>'s pending documents: true for the readings of these ids.</summary>
    private static bool[] LiveAmong(ProcessResult result, params string[] ids) =>
        [.. result.Pending.Select(p => p.Target == DocumentTarget.Archive && ids.Contains(p.Id))];

    [Fact]
    public void Process_SameBatchFreshThenStale_TheStaleReadingsStateIsByteForByteTheLiveOne()
    {
        var batch = Envelope((Builders.Weather("w", 4, lat: 12.25, lon: -3.5), Now), (Builders.Weather("w", 6, lat: 13.5, lon: -4.75), Now));
        using var fresh = Weather();
        using var redelivered = Weather();

        var first = fresh.Process([batch], Now);
        var second = redelivered.Process([batch], Later);

        Assert.Equal(0, first.StaleReadings);
        Assert.Equal(2, second.StaleReadings);
        Assert.Empty(second.Latest);
        var live = Assert.Single(first.Latest);
        var fromStale = Assert.Single(second.DeviceWrites(LiveAmong(second, Builders.ReadingId("w", 4), Builders.ReadingId("w", 6))));
        Assert.Equal(live with { DocumentOffset = 0, DocumentLength = 0 }, fromStale with { DocumentOffset = 0, DocumentLength = 0 });
        Assert.Equal(first.ReadingBytes(live).ToArray(), second.ReadingBytes(fromStale).ToArray());
        Assert.Equal(first.Documents.Slice(live.DocumentOffset, live.DocumentLength).ToArray(),
            second.Documents.Slice(fromStale.DocumentOffset, fromStale.DocumentLength).ToArray());
    }

    [Fact]
    public void DeviceWrites_StaleReadingsOnlyArchived_NeverBecomeTheState()
    {
        using var processor = Weather();
        var result = processor.Process([Envelope((Builders.Weather("w", 1), Now), (Builders.Weather("w", 2), Now))], Later);

        Assert.Equal(2, result.StaleStates.Count); // rendered, yet not candidates:
        Assert.Same(result.Latest, result.DeviceWrites(null));
        Assert.Empty(result.DeviceWrites(LiveAmong(result)));
    }

    [Fact]
    public void Process_StaleStatesOff_RendersNoneAndTheDocumentsAreTheSame()
    {
        var batch = Envelope((Builders.Weather("w", 1), Now), (Builders.Weather("w", 2), Now));
        using var on = Weather();
        using var off = new EnvelopeProcessor(SensorKind.Weather, "weather-processor", new StalenessPolicy(TimeSpan.FromMinutes(5)), renderStaleStates: false);

        var with = on.Process([batch], Later);
        var without = off.Process([batch], Later);

        Assert.Equal(2, with.StaleStates.Count);
        Assert.Empty(without.StaleStates);
        Assert.Empty(without.DeviceWrites(LiveAmong(without, Builders.ReadingId("w", 1), Builders.ReadingId("w", 2))));
        Assert.Equal(with.Pending.Select(p => (p.Id, p.Target)), without.Pending.Select(p => (p.Id, p.Target)));
        Assert.Equal(with.StaleReadings, without.StaleReadings);
    }

    [Fact]
    public void DeviceWrites_LiveAndArchivedStaleReadings_NewestLiveReadingPerDevice()
    {
        using var processor = Weather();
        var result = processor.Process([
            Envelope((Builders.Weather("a", 5), Later)), // fresh
            Envelope((Builders.Weather("a", 3), Now), (Builders.Weather("a", 7), Now), (Builders.Weather("a", 9), Now)), // stale
            Envelope((Builders.Weather("b", 2), Now), (Builders.Weather("b", 4), Now)), // stale
            Envelope((Builders.Weather("c", 8), Later), (Builders.Weather("c", 6), Now)), // fresh, stale
        ], Later);

        // a: 9 is newest but only archived (its first attempt died before writing it); 7 is live and beats the fresh 5.
        // b: no fresh reading; 4 is live. c: the fresh 8 beats the live 6.
        var writes = result.DeviceWrites(LiveAmong(result,
            Builders.ReadingId("a", 3), Builders.ReadingId("a", 7), Builders.ReadingId("b", 2), Builders.ReadingId("b", 4), Builders.ReadingId("c", 6)));

        Assert.Equal(["a", "c"], result.Latest.Select(l => l.DeviceId));
        Assert.Equal([("a", 7ul), ("c", 8ul), ("b", 4ul)], writes.Select(w => (w.DeviceId, w.Sequence)));
        Assert.All(writes, w => Assert.Equal(NewerWins.VersionKey(w.Sequence, w.ObservedAt), w.Version));
        Assert.All(writes, w => Assert.Equal(Builders.ReadingId(w.DeviceId, w.Sequence), w.ReadingId));
    }

    [Fact]
    public void Process_StaleReadingDatedInTheFuture_IsNeverACandidate()
    {
        using var processor = Weather();
        var skewed = Builders.Weather("w", 8, observed: DateTimeOffset.FromUnixTimeMilliseconds(Now).AddHours(3));
        var honest = Builders.Weather("w", 7);

        var result = processor.Process([Envelope((skewed, Now), (honest, Now))], Later);

        Assert.Equal(1, Assert.Single(result.StaleStates).PendingIndex);
        Assert.Equal(7ul, Assert.Single(result.DeviceWrites(LiveAmong(result, Builders.ReadingId(skewed), Builders.ReadingId(honest)))).Sequence);
    }

    [Fact]
    public void DeviceWrites_FlagsNotOnePerPendingDocument_Throws()
    {
        using var processor = Weather();
        var result = processor.Process([Envelope((Builders.Weather("w", 1), Now))], Later);

        Assert.Throws<ArgumentException>(() => result.DeviceWrites([true, true]));
    }
}
