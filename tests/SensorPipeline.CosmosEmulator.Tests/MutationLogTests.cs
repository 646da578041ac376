using Microsoft.Extensions.Logging.Abstractions;
using SensorPipeline.CosmosEmulator.Log;
using SensorPipeline.Emulators.Common;

namespace SensorPipeline.CosmosEmulator.Tests;

/// <summary>The mutation log on its own: torn tails are cut at the last intact record, compaction keeps exactly the live data.</summary>
public sealed class MutationLogTests : IDisposable
{
    private readonly string _directory = EmulatorProcess.NewDataDirectory();

    [Fact]
    public async Task ATornTailIsCutAtTheLastIntactRecord()
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

    [Fact]
    public async Task ACorruptRecordEndsRecoveryThere()
    {
        await using (var log = Open(new List<Mutation>()))
        {
            await log.AppendAsync(MutationCodec.Encode([Put("a", 10)]));
            await log.AppendAsync(MutationCodec.Encode([Put("b", 10)]));
        }

        var path = Path.Combine(_directory, MutationLog.FileName);
        var bytes = await File.ReadAllBytesAsync(path);
        bytes[^3] ^= 0xFF; // inside the second record's body: its CRC no longer matches
        await File.WriteAllBytesAsync(path, bytes);

        var replayed = new List<Mutation>();
        await using (Open(replayed))
        {
        }

        Assert.Equal(["a"], replayed.Select(m => m.Id));
    }

    [Fact]
    public async Task CompactionRewritesTheLogAsTheLiveData()
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
