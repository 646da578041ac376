using System.Collections.Concurrent;
using Microsoft.Extensions.Logging.Abstractions;
using SensorPipeline.EventHubs.Storage;

namespace SensorPipeline.EventHubs.Tests;

/// <summary>The log's storage layer: which directories are fsynced, and what a failing disk does to a partition.</summary>
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

    private EventHubsNamespace Open(LogStorage storage, EventLogOptions? options = null) =>
        EventHubsNamespace.Open(TestData.Config, _dir.Path, options ?? new EventLogOptions(), TimeProvider.System, NullLogger.Instance, storage);

    [Fact]
    public async Task NewPartitionDirectoriesAndSegments_AreFsyncedIntoTheirDirectory()
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
