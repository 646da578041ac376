using Microsoft.Extensions.Logging.Abstractions;
using SensorPipeline.CosmosEmulator.Log;
using SensorPipeline.Emulators.Common;

namespace SensorPipeline.CosmosEmulator.Tests;

/// <summary>The mutation log on its own: torn tails are cut at the last intact record, damage to acknowledged records
/// refuses the start, compaction keeps exactly the live data, and new files' directory entries are made durable.</summary>
public sealed class MutationLogTests : IDisposable
{
    private readonly string _directory = EmulatorClients.NewDataDirectory();

    [Fact]
    public async Task Open_TornTail_CutAtTheLastIntactRecord()
    {
        await using (var log = Open(new List<Mutation>()))
        {
            for (var i = 0; i < 5; i++)
            {
                await log.AppendAsync(MutationCodec.Encode([Put($"doc-{i}", 100)]));
            }
        }

        var path = Path.Combine(_directory, MutationLog.FileName);
        var intact = new FileInfo(path).Length;

        // A sixth record written only in part, as a kill -9 during the write leaves it.
        var sixth = MutationCodec.Encode([Put("doc-5", 100)]);
        await using (var file = new FileStream(path, FileMode.Append))
        {
            await file.WriteAsync(sixth.AsMemory(0, sixth.Length / 2));
        }

        var replayed = new List<Mutation>();
        await using (var log = Open(replayed))
        {
            Assert.Equal(intact, log.Length);
        }

        Assert.Equal(["doc-0", "doc-1", "doc-2", "doc-3", "doc-4"], replayed.Select(m => m.Id));
        Assert.Equal(intact, new FileInfo(path).Length);
    }

    [Theory]
    [InlineData("a flipped byte")]
    [InlineData("the end cut off")]
    public async Task DamageToAnAcknowledgedRecord_RefusesToStart_NamingTheFileAndOffset(string damage)
    {
        // A clean shutdown marks every record durable and acknowledged: damage to one of them is corruption, not a
        // torn write, and recovery must not cut the acknowledged records after it.
        long second;
        await using (var log = Open(new List<Mutation>()))
        {
            await log.AppendAsync(MutationCodec.Encode([Put("a", 10)]));
            second = log.Length;
            await log.AppendAsync(MutationCodec.Encode([Put("b", 10)]));
            await log.AppendAsync(MutationCodec.Encode([Put("c", 10)]));
        }

        var path = Path.Combine(_directory, MutationLog.FileName);
        var bytes = await File.ReadAllBytesAsync(path);
        if (damage == "a flipped byte")
        {
            bytes[second + 12] ^= 0xFF; // inside the second record: its CRC no longer matches
        }
        else
        {
            second = bytes.Length - MutationCodec.Encode([Put("c", 10)]).Length; // the third record, now incomplete
            bytes = bytes[..^3];
        }

        await File.WriteAllBytesAsync(path, bytes);
        var refused = Assert.Throws<InvalidDataException>(() => Open(new List<Mutation>()));
        Assert.Contains(path, refused.Message, StringComparison.Ordinal);
        Assert.Contains($"byte {second}", refused.Message, StringComparison.Ordinal);
        Assert.Equal(bytes.Length, new FileInfo(path).Length); // nothing cut
    }

    [Fact]
    public async Task OpenAndCompact_NewLogFile_FsyncTheDirectory()
    {
        // A file created or renamed into place survives power loss only once its directory entry is on disk too.
        var storage = new RecordingStorage();
        var directory = Path.GetFullPath(_directory);
        await using (var log = MutationLog.Open(_directory, DurabilityMode.Always, TimeSpan.FromSeconds(1), compactionThreshold: 1024,
            _ => { }, () => [MutationCodec.Encode([Put("live", 10)])], () => 10, NullLogger.Instance, storage))
        {
            Assert.Contains(directory, storage.FlushedDirectories);
            storage.FlushedDirectories.Clear();
            for (var i = 0; i < 20 && log.Compactions == 0; i++)
            {
                await log.AppendAsync(MutationCodec.Encode([Put($"doc-{i}", 200)]));
            }

            // The next acknowledgement comes after the compaction that the previous write triggered has finished.
            await log.AppendAsync(MutationCodec.Encode([Put("after", 10)]));
            Assert.True(log.Compactions > 0, "the log never compacted");
            Assert.Contains(directory, storage.FlushedDirectories);
        }
    }

    [Theory]
    [InlineData(1u)]
    [InlineData(2u)]
    public async Task Open_LogOfAnOlderFormat_RefusedNamingTheResetFileUntouched(uint version)
    {
        // Format 2 stored device states under '2'-prefixed version keys that would outrank every new reading.
        var path = Path.Combine(_directory, MutationLog.FileName);
        Directory.CreateDirectory(_directory);
        byte[] old = [.. "SPCL"u8, (byte)version, 0, 0, 0, .. new byte[16], .. MutationCodec.Encode([Put("old", 10)])];
        await File.WriteAllBytesAsync(path, old);

        var error = Assert.Throws<InvalidDataException>(() => Open([]));

        Assert.Contains($"format {version}", error.Message, StringComparison.Ordinal);
        Assert.Contains($"Delete the directory {_directory}", error.Message, StringComparison.Ordinal);
        Assert.Equal(old, await File.ReadAllBytesAsync(path));
    }

    /// <summary>Records every directory fsync; otherwise the real storage.</summary>
    private sealed class RecordingStorage : LogStorage
    {
        public System.Collections.Concurrent.ConcurrentBag<string> FlushedDirectories { get; } = [];

        public override void FlushDirectory(string directory)
        {
            FlushedDirectories.Add(Path.GetFullPath(directory));
            base.FlushDirectory(directory);
        }
    }

    [Fact]
    public async Task Compact_LogOutgrowsTheLiveData_RewrittenAsTheLiveData()
    {
        var live = new Dictionary<string, byte[]>();
        // The writer loop takes the snapshot while the test goes on writing: both under one lock, as the store's container locks do.
        IEnumerable<byte[]> Snapshot()
        {
            lock (live)
            {
                return [.. live.Select(p => MutationCodec.Encode([Put(p.Key, p.Value.Length)]))];
            }
        }

        long LiveBytes()
        {
            lock (live)
            {
                return live.Values.Sum(v => (long)v.Length);
            }
        }

        var log = MutationLog.Open(_directory, DurabilityMode.None, TimeSpan.FromSeconds(1), compactionThreshold: 64 * 1024, _ => { }, Snapshot, LiveBytes, NullLogger.Instance, new LogStorage());
        await using (log)
        {
            // The same ten documents rewritten over and over: the log grows, the live data does not.
            for (var round = 0; round < 100 && log.Compactions == 0; round++)
            {
                for (var i = 0; i < 10; i++)
                {
                    lock (live)
                    {
                        live[$"doc-{i}"] = new byte[500];
                    }

                    await log.AppendAsync(MutationCodec.Encode([Put($"doc-{i}", 500)]));
                }
            }

            Assert.True(log.Compactions > 0, "the log never compacted");
            Assert.True(log.Length < 64 * 1024, $"the compacted log is {log.Length} bytes");
        }

        var replayed = new List<Mutation>();
        await using (Open(replayed))
        {
        }

        Assert.Equal(Enumerable.Range(0, 10).Select(i => $"doc-{i}").Order(), replayed.Select(m => m.Id).Distinct().Order());
    }

    public void Dispose()
    {
        if (Directory.Exists(_directory))
        {
            Directory.Delete(_directory, recursive: true);
        }
    }

    private MutationLog Open(List<Mutation> replayed) =>
        MutationLog.Open(_directory, DurabilityMode.Always, TimeSpan.FromSeconds(1), 64L * 1024 * 1024, replayed.AddRange, () => [], () => 0, NullLogger.Instance, new LogStorage());

    private static Mutation Put(string id, int size) => new(MutationKind.PutDocument, "db", "items", "[\"d\"]", id, new byte[size], "\"e\"", 1, null);
}
