using System.Collections.Concurrent;
using Microsoft.Extensions.Logging.Abstractions;
using SensorPipeline.Emulators.Common;
using SensorPipeline.EventHubs.Storage;

namespace SensorPipeline.EventHubs.Tests;

/// <summary>The log's storage layer: which directories are fsynced, and what a failing disk does to a partition.</summary>
[Trait("Category", "Fast")]
public sealed class StorageFaultTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    /// <summary>Records every directory fsync; otherwise the real storage.</summary>
    private sealed class RecordingStorage : LogStorage
    {
        public ConcurrentQueue<string> FlushedDirectories { get; } = new();

        public override void FlushDirectory(string directory)
        {
            FlushedDirectories.Enqueue(Path.GetFullPath(directory));
            base.FlushDirectory(directory);
        }
    }

    /// <summary>Signals each fsync made while writes fail; can tear the next log write (half of it reaches the file).</summary>
    private sealed class FaultyStorage : LogStorage
    {
        public TaskCompletionSource FlushedWhileFailing { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public bool TearNextWrite { get; set; }

        public override void Flush(Microsoft.Win32.SafeHandles.SafeFileHandle file)
        {
            base.Flush(file);
            if (FailWrites)
            {
                FlushedWhileFailing.TrySetResult();
            }
        }

        public override async ValueTask WriteAsync(Microsoft.Win32.SafeHandles.SafeFileHandle file, IReadOnlyList<ReadOnlyMemory<byte>> buffers, long offset)
        {
            if (TearNextWrite)
            {
                TearNextWrite = false;
                await RandomAccess.WriteAsync(file, buffers[0][..(buffers[0].Length / 2)], offset);
                throw new IOException("No space left on device (torn by the test)", NoSpaceErrno);
            }

            await base.WriteAsync(file, buffers, offset);
        }
    }

    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(30);

    private static async Task<List<string>> AllAsync(EventHubsNamespace ns) =>
        (await ns.ReadAsync("one", "0", 0, 0, 1000, TimeSpan.Zero, default)).Select(TestData.Text).ToList();

    [Theory]
    [InlineData(DurabilityMode.Interval)]
    [InlineData(DurabilityMode.Always)]
    public async Task AppendAsync_DiskFullThenRoomAgain_RefusedWithoutLossThenRecovered(DurabilityMode durability)
    {
        var storage = new FaultyStorage();
        // A long interval: the test asks for the flush itself, so it surely comes after the fault.
        var options = new EventLogOptions { Durability = durability, FlushInterval = TimeSpan.FromMinutes(1) };
        await using (var ns = Open(storage, options))
        {
            Assert.Equal(0, (await ns.AppendAsync("one", "0", [TestData.Event("acknowledged")], default)).FirstSequenceNumber);

            storage.FailWrites = true;
            var refused = await Assert.ThrowsAsync<PartitionUnavailableException>(async () => await ns.AppendAsync("one", "0", [TestData.Event("refused")], default));
            Assert.Contains("nothing was acknowledged", refused.Message, StringComparison.Ordinal);
            Assert.Equal(LogStorage.NoSpaceErrno, refused.InnerException!.HResult);
            await Assert.ThrowsAsync<PartitionUnavailableException>(async () => await ns.AppendAsync("one", "0", [TestData.Event("refused again")], default));
            if (durability == DurabilityMode.Interval)
            {
                // The acknowledged event is not on disk yet: its fsync must still happen while writes fail.
                ns.GetPartitionLog("one", "0").RequestWork(PartitionLog.RequestKind.Flush);
                await storage.FlushedWhileFailing.Task.WaitAsync(Patience);
            }

            // The disk has room again: the next append works without a restart, with no gap in sequence numbers.
            storage.FailWrites = false;
            Assert.Equal(1, (await ns.AppendAsync("one", "0", [TestData.Event("after")], default)).FirstSequenceNumber);
            Assert.Equal(["acknowledged", "after"], await AllAsync(ns));
        }

        await using var reopened = Open(new LogStorage(), options);
        Assert.Equal(["acknowledged", "after"], await AllAsync(reopened));
    }

    [Fact]
    public async Task AppendAsync_AfterATornWrite_TornBytesCutFirst()
    {
        var storage = new FaultyStorage();
        await using (var ns = Open(storage))
        {
            await ns.AppendAsync("one", "0", [TestData.Event("first")], default);
            storage.TearNextWrite = true;
            await Assert.ThrowsAsync<PartitionUnavailableException>(async () => await ns.AppendAsync("one", "0", [TestData.Event(new string('t', 5000))], default));
            Assert.Equal(1, (await ns.AppendAsync("one", "0", [TestData.Event("second")], default)).FirstSequenceNumber);
            Assert.Equal(["first", "second"], await AllAsync(ns));
        }

        await using var reopened = Open(new LogStorage());
        Assert.Equal(["first", "second"], await AllAsync(reopened));
    }

    [Fact]
    public async Task DiskFullDuringASegmentRoll_LeavesNoSegmentBehind_AndRollsLater()
    {
        var storage = new FaultyStorage();
        var options = new EventLogOptions { SegmentSizeBytes = 64 * 1024 };
        var body = new string('x', 20_000);
        await using (var ns = Open(storage, options))
        {
            for (var i = 0; i < 3; i++)
            {
                await ns.AppendAsync("one", "0", [TestData.Event(body)], default);
            }

            Assert.Equal(1, ns.GetPartitionProperties("one", "0").SegmentCount);
            storage.FailWrites = true; // the next event does not fit: the roll's new segment header cannot be written
            await Assert.ThrowsAsync<PartitionUnavailableException>(async () => await ns.AppendAsync("one", "0", [TestData.Event(body)], default));
            Assert.Single(Directory.GetFiles(Path.Combine(_dir.Path, "one", "0"), "*.log"));

            storage.FailWrites = false;
            Assert.Equal(3, (await ns.AppendAsync("one", "0", [TestData.Event(body)], default)).FirstSequenceNumber);
            Assert.Equal(2, ns.GetPartitionProperties("one", "0").SegmentCount);
        }

        await using var reopened = Open(new LogStorage(), options);
        Assert.Equal([body, body, body, body], await AllAsync(reopened));
    }

    private EventHubsNamespace Open(LogStorage storage, EventLogOptions? options = null) =>
        EventHubsNamespace.Open(TestData.Config, _dir.Path, options ?? new EventLogOptions(), TimeProvider.System, NullLogger.Instance, storage);

    [Fact]
    public async Task Open_NewPartitionDirectoriesAndSegments_FsyncedIntoTheirDirectory()
    {
        var storage = new RecordingStorage();
        var root = Path.GetFullPath(_dir.Path);
        var partition = Path.Combine(root, "one", "0");
        await using (var ns = Open(storage, new EventLogOptions { SegmentSizeBytes = 64 * 1024 }))
        {
            // Creation: the hub directory's entry (in the data directory), each partition's (in the hub directory),
            // and each first segment's (in its partition directory).
            Assert.Contains(root, storage.FlushedDirectories);
            Assert.Contains(Path.Combine(root, "one"), storage.FlushedDirectories);
            Assert.Contains(Path.Combine(root, "hub"), storage.FlushedDirectories);
            Assert.Contains(partition, storage.FlushedDirectories);
            var before = storage.FlushedDirectories.Count(d => d == partition);

            // A segment roll creates a file: its entry is fsynced too.
            var body = new string('x', 10_000);
            for (var i = 0; i < 20; i++)
            {
                await ns.AppendAsync("one", "0", [TestData.Event(body)], default);
            }

            Assert.True(ns.GetPartitionProperties("one", "0").SegmentCount > 1);
            Assert.True(storage.FlushedDirectories.Count(d => d == partition) > before);
        }

        // Reopening existing directories creates nothing and fsyncs no directory.
        var reopened = new RecordingStorage();
        await using (Open(reopened))
        {
            Assert.Empty(reopened.FlushedDirectories);
        }
    }
}
