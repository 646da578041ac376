namespace SensorPipeline.EventHubs.Tests;

/// <summary>Torn tails, segment rolls with index seeks, and retention — through reopening the real files.</summary>
[Trait("Category", "Fast")]
public sealed class RecoveryAndRetentionTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    private string PartitionDirectory => Path.Combine(_dir.Path, "one", "0");

    private EventHubsNamespace Open(EventLogOptions? options = null, TimeProvider? time = null) =>
        EventHubsNamespace.Open(TestData.Config, _dir.Path, options ?? new EventLogOptions(), time ?? TimeProvider.System);

    private async Task WriteEventsAsync(int count, EventLogOptions? options = null)
    {
        await using var ns = Open(options);
        for (var i = 0; i < count; i++)
        {
            await ns.AppendAsync("one", "0", [TestData.Event("event-" + i)], default);
        }
    }

    private string NewestSegment() => Directory.GetFiles(PartitionDirectory, "*.log").Order(StringComparer.Ordinal).Last();

    [Fact]
    public async Task Recovery_GarbageAfterLastRecord_TruncatedAndSequenceContinues()
    {
        await WriteEventsAsync(10);
        var segment = NewestSegment();
        var validLength = new FileInfo(segment).Length;
        await File.AppendAllTextAsync(segment, "this is a torn write, not a record");

        await using var ns = Open();
        Assert.Equal(9, ns.GetPartitionProperties("one", "0").LastEnqueuedSequenceNumber);
        Assert.Equal(validLength, new FileInfo(segment).Length);
        Assert.Equal(10, (await ns.AppendAsync("one", "0", [TestData.Event("after")], default)).FirstSequenceNumber);
        var events = await ns.ReadAsync("one", "0", 0, 0, 100, TimeSpan.Zero, default);
        Assert.Equal(Enumerable.Range(0, 10).Select(i => "event-" + i).Append("after"), events.Select(TestData.Text));
    }

    [Fact]
    public async Task Recovery_LastRecordCut_LastEventDroppedAndItsSequenceReused()
    {
        await WriteEventsAsync(10);
        var segment = NewestSegment();

        // The crash came before the last event's fsync: it was never acknowledged, so its record may be torn.
        TestData.SetDurableMark(segment, TestData.RecordStarts(segment)[^1]);
        await using (var stream = new FileStream(segment, FileMode.Open))
        {
            stream.SetLength(stream.Length - 3);
        }

        await using var ns = Open();
        Assert.Equal(8, ns.GetPartitionProperties("one", "0").LastEnqueuedSequenceNumber);
        Assert.Equal(9, (await ns.AppendAsync("one", "0", [TestData.Event("again")], default)).FirstSequenceNumber);
        var events = await ns.ReadAsync("one", "0", 8, 0, 100, TimeSpan.Zero, default);
        Assert.Equal(["event-8", "again"], events.Select(TestData.Text));
    }

    [Fact]
    public async Task Recovery_FlippedByteInLastRecord_CrcCatchesIt()
    {
        await WriteEventsAsync(3);
        var segment = NewestSegment();
        TestData.SetDurableMark(segment, TestData.RecordStarts(segment)[^1]); // the last event was never acknowledged
        var bytes = await File.ReadAllBytesAsync(segment);
        bytes[^2] ^= 0xFF; // inside the last record's body
        await File.WriteAllBytesAsync(segment, bytes);

        await using var ns = Open();
        Assert.Equal(1, ns.GetPartitionProperties("one", "0").LastEnqueuedSequenceNumber);
    }

    [Theory]
    [InlineData("a flipped byte")]
    [InlineData("the end cut off")]
    public async Task Open_DamageBelowTheDurableMark_RefusedNamingTheFileAndOffset(string damage)
    {
        // A clean shutdown marks every record durable and acknowledged: damage to any of them is corruption, not a
        // torn write, and recovery must not cut acknowledged events after it.
        await WriteEventsAsync(5);
        var segment = NewestSegment();
        var second = TestData.RecordStarts(segment)[1];
        if (damage == "a flipped byte")
        {
            var bytes = await File.ReadAllBytesAsync(segment);
            bytes[second + 20] ^= 0xFF;
            await File.WriteAllBytesAsync(segment, bytes);
        }
        else
        {
            await using var stream = new FileStream(segment, FileMode.Open);
            stream.SetLength(stream.Length - 3);
        }

        var length = new FileInfo(segment).Length;
        var refused = Assert.Throws<InvalidDataException>(() => Open());
        Assert.Contains(segment, refused.Message, StringComparison.Ordinal);
        var at = damage == "a flipped byte" ? second : TestData.RecordStarts(segment)[^1];
        Assert.Contains($"byte {at}", refused.Message, StringComparison.Ordinal);
        Assert.Equal(length, new FileInfo(segment).Length); // nothing cut
    }

    [Fact]
    public async Task Segments_RollAndReopen_SeekBySequenceNumberAcrossSegments()
    {
        var options = new EventLogOptions { SegmentSizeBytes = 64 * 1024, CacheBytesPerPartition = 0 };
        await using (var ns = Open(options))
        {
            for (var i = 0; i < 30; i++)
            {
                await ns.AppendAsync("one", "0", Enumerable.Range(0, 100).Select(j => TestData.Event($"event-{(i * 100) + j}-" + new string('x', 50))).ToList(), default);
            }
        }

        Assert.True(Directory.GetFiles(PartitionDirectory, "*.log").Length > 3);
        await using var reopened = Open(options);
        foreach (var from in new long[] { 0, 1, 999, 1000, 1777, 2999 })
        {
            var events = await reopened.ReadAsync("one", "0", from, 0, 50, TimeSpan.Zero, default);
            Assert.Equal(from, events[0].SequenceNumber);
            Assert.StartsWith($"event-{from}-", TestData.Text(events[0]), StringComparison.Ordinal);
            Assert.Equal(Math.Min(50, 3000 - from), events.Count);
            Assert.Equal(Enumerable.Range(0, events.Count).Select(i => from + i), events.Select(e => e.SequenceNumber));
        }

        // Offsets continue across segment boundaries and never repeat.
        var all = new List<StoredEvent>();
        for (long from = 0; from < 3000; from += all.Count - (int)from)
        {
            all.AddRange(await reopened.ReadAsync("one", "0", from, 0, 1000, TimeSpan.Zero, default));
        }

        Assert.Equal(3000, all.Count);
        Assert.True(all.Zip(all.Skip(1)).All(p => p.Second.Offset > p.First.Offset));
    }

    [Fact]
    public async Task Recovery_SealedSegmentIndexMissing_RebuiltFromLog()
    {
        var options = new EventLogOptions { SegmentSizeBytes = 64 * 1024 };
        await using (var ns = Open(options))
        {
            for (var i = 0; i < 20; i++)
            {
                await ns.AppendAsync("one", "0", Enumerable.Range(0, 100).Select(j => TestData.Event(new string('y', 60))).ToList(), default);
            }
        }

        var firstIndex = Directory.GetFiles(PartitionDirectory, "*.idx").Order(StringComparer.Ordinal).First();
        File.Delete(firstIndex);
        await using var reopened = Open(options);
        var events = await reopened.ReadAsync("one", "0", 10, 0, 5, TimeSpan.Zero, default);
        Assert.Equal(10, events[0].SequenceNumber);
        Assert.True(File.Exists(firstIndex));
    }

    [Fact]
    public async Task Recovery_SealedSegmentIndexZeroedInTheMiddle_RebuiltFromLog()
    {
        var options = new EventLogOptions { SegmentSizeBytes = 64 * 1024, CacheBytesPerPartition = 0 };
        await using (var ns = Open(options))
        {
            for (var i = 0; i < 20; i++)
            {
                await ns.AppendAsync("one", "0", Enumerable.Range(0, 100).Select(j => TestData.Event($"e{(i * 100) + j}")).ToList(), default);
            }
        }

        var firstIndex = Directory.GetFiles(PartitionDirectory, "*.idx").Order(StringComparer.Ordinal).First();
        var bytes = await File.ReadAllBytesAsync(firstIndex);
        Array.Clear(bytes, 400, 400); // records 100..199 lost their positions, the last entry is intact
        await File.WriteAllBytesAsync(firstIndex, bytes);

        await using var reopened = Open(options);
        var events = await reopened.ReadAsync("one", "0", 150, 0, 3, TimeSpan.Zero, default);
        Assert.Equal(["e150", "e151", "e152"], events.Select(TestData.Text));
    }

    [Fact]
    public async Task Retention_BySize_DeletesWholeOldestSegments()
    {
        var options = new EventLogOptions { SegmentSizeBytes = 64 * 1024, RetentionMaxBytesPerPartition = 128 * 1024 };
        await using var ns = Open(options);
        for (var i = 0; i < 40; i++)
        {
            await ns.AppendAsync("one", "0", Enumerable.Range(0, 50).Select(j => TestData.Event(new string('z', 100))).ToList(), default);
        }

        var p = ns.GetPartitionProperties("one", "0");
        Assert.True(p.BeginningSequenceNumber > 0);
        Assert.True(p.SizeBytes <= 128 * 1024 + (64 * 1024), $"size {p.SizeBytes}");
        Assert.Equal(1999, p.LastEnqueuedSequenceNumber);
        var events = await ns.ReadAsync("one", "0", 0, 0, 10, TimeSpan.Zero, default);
        Assert.Equal(p.BeginningSequenceNumber, events[0].SequenceNumber); // older than retention → the oldest retained
    }

    [Fact]
    public async Task Retention_ByAge_DeletesSegmentsOlderThanThePeriod()
    {
        var time = new ShiftedTimeProvider();
        var options = new EventLogOptions { SegmentSizeBytes = 64 * 1024, RetentionPeriod = TimeSpan.FromHours(1) };
        await using var ns = Open(options, time);
        for (var i = 0; i < 10; i++)
        {
            await ns.AppendAsync("one", "0", Enumerable.Range(0, 50).Select(j => TestData.Event(new string('o', 200))).ToList(), default);
        }

        var before = ns.GetPartitionProperties("one", "0");
        Assert.Equal(0, before.BeginningSequenceNumber);
        time.Offset = TimeSpan.FromHours(2);

        // The next roll runs retention: every segment written "two hours ago" goes, the new ones stay.
        for (var i = 0; i < 3; i++)
        {
            await ns.AppendAsync("one", "0", Enumerable.Range(0, 50).Select(j => TestData.Event(new string('n', 200))).ToList(), default);
        }

        var after = ns.GetPartitionProperties("one", "0");
        Assert.True(after.BeginningSequenceNumber >= 500, $"beginning {after.BeginningSequenceNumber}");
        Assert.True(after.SegmentCount < before.SegmentCount + 2);
    }
}
