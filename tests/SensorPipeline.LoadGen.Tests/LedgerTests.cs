using SensorPipeline.Devices;
using SensorPipeline.LoadGen.Events;
using SensorPipeline.LoadGen.Ledger;

namespace SensorPipeline.LoadGen.Tests;

[Trait("Category", "Fast")]
public sealed class LedgerTests : IDisposable
{
    private static readonly SendOutcome Sent = new(SendStatus.Sent, 1, 201, TimeSpan.FromMilliseconds(3), null);
    private static readonly SendOutcome Rejected = new(SendStatus.Rejected, 1, 400, TimeSpan.FromMilliseconds(3), "bad");
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public async Task WriteThenRead_RoundTripsEveryField_AndLeavesNoTemporaryFile()
    {
        var ledger = new RunLedger
        {
            Target = "http://127.0.0.1:1/ingestion/messages",
            Seed = 9,
            StartedAt = Builders.Observed,
            UpdatedAt = Builders.Observed.AddSeconds(5),
            Complete = true,
            Counts = new LedgerCounts { EventsSent = 3, ReadingsSent = 150, EventsFailed = 1, ReadingsFailed = 50, Retries = 2, PoisonSent = 1, ElapsedSeconds = 4.5 },
            Devices = [new LedgerDevice { Id = "d-weather-0001", Kind = "weather", HighestSequence = 18446744073709551615, Unsent = [new SequenceRange(4, 6)] }],
            Injected = [new LedgerInjection { Kind = "poison", Sha256 = "ab", Bytes = 70, Acknowledged = true, Status = 201 }],
        };
        var path = _dir.File("sub/ledger.json");

        await LedgerFile.WriteAsync(path, ledger, CancellationToken.None);
        var read = await LedgerFile.ReadAsync(path, CancellationToken.None);

        Assert.Equal(System.Text.Json.JsonSerializer.Serialize(ledger, LedgerJsonContext.Default.RunLedger),
            System.Text.Json.JsonSerializer.Serialize(read, LedgerJsonContext.Default.RunLedger));
        Assert.Equal(18446744073709551615UL, read.Devices[0].HighestSequence);
        Assert.Equal(["ledger.json"], Directory.GetFiles(_dir.File("sub")).Select(Path.GetFileName));
    }

    [Fact]
    public async Task Read_Malformed_InvalidDataNamingTheFile()
    {
        var path = _dir.File("bad.json");
        await File.WriteAllTextAsync(path, "{ not json");

        var e = await Assert.ThrowsAsync<InvalidDataException>(() => LedgerFile.ReadAsync(path, CancellationToken.None));

        Assert.Contains(path, e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Tracker_OutOfOrderOutcomes_AppliedOnlyBelowTheWatermark()
    {
        var fleet = new DeviceFleet([1, 1], 1, "t");
        var packer = new EventPacker(fleet);
        var tracker = new LedgerTracker(fleet);
        var events = Enumerable.Range(0, 4).Select(_ => packer.Next(2, Builders.Observed)).ToList(); // each: one reading per device

        tracker.Record(events[1], Sent);
        tracker.Record(events[3], Sent);
        var early = tracker.Snapshot("t", 1, Builders.Observed, Builders.Observed, TimeSpan.Zero, complete: false);
        tracker.Record(events[0], Sent);
        var middle = tracker.Snapshot("t", 1, Builders.Observed, Builders.Observed, TimeSpan.Zero, complete: false);
        tracker.Record(events[2], Rejected);
        var final = tracker.Snapshot("t", 1, Builders.Observed, Builders.Observed, TimeSpan.Zero, complete: true);

        // Event 0 unresolved: nothing can be claimed yet, though 1 and 3 were acknowledged.
        Assert.All(early.Devices, d => Assert.Equal(0UL, d.HighestSequence));
        Assert.All(middle.Devices, d => Assert.Equal(2UL, d.HighestSequence));
        Assert.All(final.Devices, d =>
        {
            Assert.Equal(4UL, d.HighestSequence);
            Assert.Equal([new SequenceRange(3, 3)], d.Unsent);
        });
        Assert.Equal(3, final.Counts.EventsSent);
        Assert.Equal(6, final.Counts.ReadingsSent);
        Assert.Equal(1, final.Counts.EventsFailed);
    }

    [Fact]
    public void Snapshot_ConsecutiveFailures_MergeIntoOneUnsentRange()
    {
        var fleet = new DeviceFleet([1, 0], 1, "t");
        var packer = new EventPacker(fleet);
        var tracker = new LedgerTracker(fleet);
        tracker.Record(packer.Next(5, Builders.Observed), Sent);
        tracker.Record(packer.Next(5, Builders.Observed), Rejected);
        tracker.Record(packer.Next(5, Builders.Observed), null); // unconfirmed
        tracker.Record(packer.Next(5, Builders.Observed), Sent);

        var ledger = tracker.Snapshot("t", 1, Builders.Observed, Builders.Observed, TimeSpan.Zero, complete: true);

        Assert.Equal(20UL, ledger.Devices[0].HighestSequence);
        Assert.Equal([new SequenceRange(6, 15)], ledger.Devices[0].Unsent);
        Assert.Equal(1, ledger.Counts.EventsUnconfirmed);
    }

    [Fact]
    public void Snapshot_InjectedEventAcknowledged_RecordedByItsHash()
    {
        var fleet = new DeviceFleet([1, 0], 1, "t");
        var tracker = new LedgerTracker(fleet);
        var poison = new PackedEvent(EventKind.Poison, [1, 2, 3], 0, [], -1);
        tracker.Record(poison, Sent);

        var ledger = tracker.Snapshot("t", 1, Builders.Observed, Builders.Observed, TimeSpan.Zero, complete: true);

        var injected = Assert.Single(ledger.Injected);
        Assert.Equal("039058c6f2c0cb492c533b0a4d14ef77cc0f78abccced5287d84a1a2011cfb81", injected.Sha256); // sha256(01 02 03)
        Assert.True(injected.Acknowledged);
    }
}
