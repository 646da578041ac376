using SensorPipeline.Emulators.Common;
using SensorPipeline.EventHubs.Storage;

namespace SensorPipeline.EventHubs.Tests;

/// <summary>The partition log in process: sequence numbers, offsets, routing, limits, reads and reopening.</summary>
[Trait("Category", "Fast")]
public sealed class EventLogTests : IDisposable
{
    private static readonly TimeSpan NoWait = TimeSpan.Zero;
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    private EventHubsNamespace Open(EventLogOptions? options = null, TimeProvider? time = null) =>
        EventHubsNamespace.Open(TestData.Config, _dir.Path, options ?? new EventLogOptions(), time ?? TimeProvider.System);

    [Fact]
    public async Task Append_NewPartition_SequenceNumbersFromZeroAndOffsetsIncrease()
    {
        await using var ns = Open();
        var first = await ns.AppendAsync("hub", "2", [TestData.Event("a"), TestData.Event("bb")], default);
        var second = await ns.AppendAsync("hub", "2", [TestData.Event("ccc")], default);

        Assert.Equal(new AppendResult("2", 0, 1), first);
        Assert.Equal(new AppendResult("2", 2, 2), second);
        var events = await ns.ReadAsync("hub", "2", 0, 0, 10, NoWait, default);
        Assert.Equal([0L, 1, 2], events.Select(e => e.SequenceNumber));
        Assert.Equal(["a", "bb", "ccc"], events.Select(TestData.Text));
        Assert.Equal(0, events[0].Offset);
        Assert.True(events[1].Offset > events[0].Offset && events[2].Offset > events[1].Offset);
        Assert.All(events, e => Assert.Equal("2", e.PartitionId));
        var properties = ns.GetPartitionProperties("hub", "2");
        Assert.Equal((0L, 2L, events[2].Offset, false), (properties.BeginningSequenceNumber, properties.LastEnqueuedSequenceNumber, properties.LastEnqueuedOffset, properties.IsEmpty));
    }

    [Fact]
    public async Task GetPartitionProperties_Empty_LastSequenceIsMinusOne()
    {
        await using var ns = Open();
        var p = ns.GetPartitionProperties("hub", "0");
        Assert.Equal((0L, -1L, -1L, true), (p.BeginningSequenceNumber, p.LastEnqueuedSequenceNumber, p.LastEnqueuedOffset, p.IsEmpty));
    }

    [Fact]
    public async Task Append_EnqueuedTime_ComesFromTimeProvider()
    {
        var time = new ShiftedTimeProvider { Offset = TimeSpan.FromDays(400) };
        await using var ns = Open(time: time);
        var before = time.GetUtcNow();
        await ns.AppendAsync("one", null, [TestData.Event("x")], default);
        var e = Assert.Single(await ns.ReadAsync("one", "0", 0, 0, 1, NoWait, default));

        Assert.InRange(e.EnqueuedTime, before, time.GetUtcNow());
        Assert.Equal(TimeSpan.Zero, e.EnqueuedTime.Offset);
    }

    [Fact]
    public async Task Append_SamePartitionKey_SamePartitionAcrossReopen()
    {
        string partition;
        await using (var ns = Open())
        {
            partition = (await ns.AppendAsync("hub", null, [TestData.Event("1", "device-42")], default)).PartitionId;
            Assert.Equal(partition, (await ns.AppendAsync("hub", null, [TestData.Event("2", "device-42")], default)).PartitionId);
        }

        await using var reopened = Open();
        Assert.Equal(partition, (await reopened.AppendAsync("hub", null, [TestData.Event("3", "device-42")], default)).PartitionId);
        Assert.Equal(PartitionHash.Partition("device-42", 4).ToString(System.Globalization.CultureInfo.InvariantCulture), partition);
    }

    [Fact]
    public void PartitionHash_ManyKeys_SpreadOverAllPartitions()
    {
        var counts = new int[4];
        for (var i = 0; i < 4000; i++)
        {
            counts[PartitionHash.Partition("device-" + i, 4)]++;
        }

        Assert.All(counts, c => Assert.InRange(c, 800, 1200));
    }

    [Fact]
    public async Task Append_NoKeyNoPartition_RoundRobin()
    {
        await using var ns = Open();
        var partitions = new List<string>();
        for (var i = 0; i < 8; i++)
        {
            partitions.Add((await ns.AppendAsync("hub", null, [TestData.Event("x")], default)).PartitionId);
        }

        Assert.Equal(4, partitions.Distinct().Count());
        Assert.Equal(partitions[..4], partitions[4..]);
    }

    [Fact]
    public async Task Append_EventOver1MiB_ThrowsAndAppendsNothing()
    {
        await using var ns = Open();
        var big = new EventToAppend(new byte[EventLogOptions.MaxEventSizeBytes + 1], null, null);
        var exactly = new EventToAppend(new byte[EventLogOptions.MaxEventSizeBytes], null, null);
        var withKey = new EventToAppend(new byte[EventLogOptions.MaxEventSizeBytes], "k", null);

        await Assert.ThrowsAsync<EventTooLargeException>(async () => await ns.AppendAsync("one", "0", [big], default));
        await Assert.ThrowsAsync<EventTooLargeException>(async () => await ns.AppendAsync("one", "0", [withKey], default));
        await Assert.ThrowsAsync<EventTooLargeException>(async () =>
            await ns.AppendAsync("one", "0", [TestData.Event("small"), new EventToAppend(new byte[EventLogOptions.MaxEventSizeBytes - 2], null, null)], default));
        Assert.True(ns.GetPartitionProperties("one", "0").IsEmpty);
        Assert.Equal(0, (await ns.AppendAsync("one", "0", [exactly], default)).FirstSequenceNumber);
    }

    [Fact]
    public async Task Append_ABatchOfManyEmptyEvents_CountsEachEventsFramingAsTheServiceDoes()
    {
        // The service counts a batch as its AMQP message: every event is a message of its own (at least a 5-byte Data
        // section) wrapped in a Data section of the batch (5 more bytes). 110,000 empty events are 1,100,000 bytes,
        // over the 1 MiB limit, though their payload is 0 bytes; 100,000 (1,000,000 bytes) fit.
        await using var ns = Open();
        var empty = new EventToAppend(ReadOnlyMemory<byte>.Empty, null, null);

        var refused = await Assert.ThrowsAsync<EventTooLargeException>(async () => await ns.AppendAsync("one", "0", [.. Enumerable.Repeat(empty, 110_000)], default));
        Assert.Contains("110000 events", refused.Message, StringComparison.Ordinal);
        Assert.True(ns.GetPartitionProperties("one", "0").IsEmpty);
        Assert.Equal(new AppendResult("0", 0, 99_999), await ns.AppendAsync("one", "0", [.. Enumerable.Repeat(empty, 100_000)], default));
    }

    [Fact]
    public async Task Append_UnknownHubOrPartition_Throws()
    {
        await using var ns = Open();
        await Assert.ThrowsAsync<EventHubNotFoundException>(async () => await ns.AppendAsync("nope", null, [TestData.Event("x")], default));
        await Assert.ThrowsAsync<PartitionNotFoundException>(async () => await ns.AppendAsync("hub", "4", [TestData.Event("x")], default));
        await Assert.ThrowsAsync<PartitionNotFoundException>(async () => await ns.AppendAsync("hub", "01", [TestData.Event("x")], default));
        await Assert.ThrowsAsync<PartitionNotFoundException>(async () => await ns.ReadAsync("hub", "-1", 0, 0, 1, NoWait, default));
        Assert.Throws<EventHubNotFoundException>(() => ns.GetPartitionProperties("nope", "0"));
    }

    [Fact]
    public async Task Append_HubName_IsCaseInsensitive()
    {
        await using var ns = Open();
        await ns.AppendAsync("HUB", "1", [TestData.Event("x")], default);
        Assert.Equal(0, ns.GetPartitionProperties("hub", "1").LastEnqueuedSequenceNumber);
    }

    [Fact]
    public async Task Read_Properties_RoundTripTyped()
    {
        var when = new DateTimeOffset(2026, 11, 21, 10, 0, 0, TimeSpan.Zero);
        var id = Guid.NewGuid();
        var properties = new Dictionary<string, object?>
        {
            ["s"] = "text é", ["i"] = 42, ["l"] = 5_000_000_000L, ["d"] = 2.5, ["b"] = true, ["n"] = null, ["t"] = when, ["g"] = id, ["bytes"] = new byte[] { 1, 2 },
        };
        await using var ns = Open();
        await ns.AppendAsync("one", "0", [TestData.Event("x", "key", properties)], default);
        var e = Assert.Single(await ns.ReadAsync("one", "0", 0, 0, 1, NoWait, default));

        Assert.Equal("key", e.PartitionKey);
        Assert.Equal(properties.Count, e.Properties.Count);
        Assert.Equal("text é", e.Properties["s"]);
        Assert.Equal(42, e.Properties["i"]);
        Assert.Equal(5_000_000_000L, e.Properties["l"]);
        Assert.Equal(2.5, e.Properties["d"]);
        Assert.Equal(true, e.Properties["b"]);
        Assert.Null(e.Properties["n"]);
        Assert.Equal(when, e.Properties["t"]);
        Assert.Equal(id, e.Properties["g"]);
        Assert.Equal(new byte[] { 1, 2 }, e.Properties["bytes"]);
    }

    [Fact]
    public async Task Append_UnsupportedPropertyType_ThrowsArgumentException()
    {
        await using var ns = Open();
        await Assert.ThrowsAsync<ArgumentException>(async () =>
            await ns.AppendAsync("one", "0", [TestData.Event("x", properties: new Dictionary<string, object?> { ["bad"] = new object() })], default));
        Assert.True(ns.GetPartitionProperties("one", "0").IsEmpty);
    }

    [Fact]
    public async Task Read_FromMiddleWithLimit_ReturnsInOrder()
    {
        await using var ns = Open();
        for (var i = 0; i < 20; i++)
        {
            await ns.AppendAsync("one", "0", [TestData.Event("e" + i)], default);
        }

        var events = await ns.ReadAsync("one", "0", 5, 0, 4, NoWait, default);
        Assert.Equal(["e5", "e6", "e7", "e8"], events.Select(TestData.Text));
        Assert.Empty(await ns.ReadAsync("one", "0", 20, 0, 4, NoWait, default));
    }

    [Fact]
    public async Task Read_MinEventsNotThere_WaitsUntilAppended()
    {
        await using var ns = Open();
        var read = ns.ReadAsync("one", "0", 0, 2, 10, TimeSpan.FromSeconds(20), default).AsTask();
        await ns.AppendAsync("one", "0", [TestData.Event("a")], default);
        Assert.False(read.IsCompleted);
        await ns.AppendAsync("one", "0", [TestData.Event("b")], default);

        var events = await read.WaitAsync(TimeSpan.FromSeconds(10));
        Assert.Equal(["a", "b"], events.Select(TestData.Text));
    }

    [Fact]
    public async Task Read_MaxWaitElapses_ReturnsWhatIsThere()
    {
        await using var ns = Open();
        await ns.AppendAsync("one", "0", [TestData.Event("a")], default);

        var events = await ns.ReadAsync("one", "0", 0, 5, 10, TimeSpan.FromMilliseconds(50), default);
        Assert.Equal(["a"], events.Select(TestData.Text));
        Assert.Empty(await ns.ReadAsync("one", "0", 1, 1, 10, TimeSpan.FromMilliseconds(50), default));
    }

    [Fact]
    public async Task Read_Cancelled_Throws()
    {
        await using var ns = Open();
        using var cts = new CancellationTokenSource(TimeSpan.FromMilliseconds(50));
        await Assert.ThrowsAnyAsync<OperationCanceledException>(async () => await ns.ReadAsync("one", "0", 0, 1, 1, TimeSpan.FromSeconds(30), cts.Token));
    }

    [Theory]
    [InlineData(DurabilityMode.Always)]
    [InlineData(DurabilityMode.Interval)]
    [InlineData(DurabilityMode.None)]
    public async Task Reopen_AfterDispose_EventsKeptAndSequenceContinues(DurabilityMode durability)
    {
        var options = new EventLogOptions { Durability = durability };
        await using (var ns = Open(options))
        {
            await ns.AppendAsync("hub", "1", [TestData.Event("a", "k", new Dictionary<string, object?> { ["p"] = 1 }), TestData.Event("b")], default);
        }

        await using var reopened = Open(options);
        Assert.Equal(2, (await reopened.AppendAsync("hub", "1", [TestData.Event("c")], default)).FirstSequenceNumber);
        var events = await reopened.ReadAsync("hub", "1", 0, 0, 10, NoWait, default);
        Assert.Equal(["a", "b", "c"], events.Select(TestData.Text));
        Assert.Equal(1, events[0].Properties["p"]);
        Assert.Equal("k", events[0].PartitionKey);
    }

    [Fact]
    public async Task Open_SameDirectoryTwice_SecondFailsWithClearError()
    {
        await using var ns = Open();
        var e = Assert.Throws<IOException>(() => Open());
        Assert.Contains("in use", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ConcurrentAppends_OnePartition_ContiguousUniqueSequenceNumbers()
    {
        await using var ns = Open();
        var results = await Task.WhenAll(Enumerable.Range(0, 8).Select(async writer =>
        {
            var mine = new List<(long Seq, string Body)>();
            for (var i = 0; i < 100; i++)
            {
                var body = $"w{writer}-{i}";
                var r = await ns.AppendAsync("one", "0", [TestData.Event(body)], default);
                mine.Add((r.FirstSequenceNumber, body));
            }

            return mine;
        }));

        var all = results.SelectMany(r => r).OrderBy(r => r.Seq).ToList();
        Assert.Equal(Enumerable.Range(0, 800).Select(i => (long)i), all.Select(r => r.Seq));
        var stored = await ns.ReadAsync("one", "0", 0, 0, 1000, NoWait, default);
        Assert.Equal(all.Select(r => r.Body), stored.Select(TestData.Text));
    }
}
