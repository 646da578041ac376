using SensorPipeline.FunctionsHost.Checkpoints;

namespace SensorPipeline.FunctionsHost.Tests;

[Trait("Category", "Fast")]
public sealed class CheckpointStoreTests : IDisposable
{
    private readonly TempDirectory _dir = new("fh-cp-");
    private readonly CheckpointKey _key = new("Ingestion", "$Default", "3");

    public void Dispose() => _dir.Dispose();

    private string[] Slots() => Directory.GetFiles(_dir.Path, "*.checkpoint", SearchOption.AllDirectories).Order(StringComparer.Ordinal).ToArray();

    [Fact]
    public async Task WriteThenRead_NewestWins_AcrossInstances()
    {
        var writer = new FileCheckpointStore(_dir.Path, TimeProvider.System);
        await writer.WriteAsync(_key, 40, 1024, CancellationToken.None);
        await writer.WriteAsync(_key, 41, 4096, CancellationToken.None);
        await writer.WriteAsync(_key, 42, 8192, CancellationToken.None);

        var read = await new FileCheckpointStore(_dir.Path, TimeProvider.System).ReadAsync(_key with { Hub = "ingestion" }, CancellationToken.None);
        Assert.Equal(42, read!.SequenceNumber);
        Assert.Equal(8192, read.Offset);
        Assert.Equal(2, Slots().Length);
    }

    [Fact]
    public async Task ReadAsync_TornNewestSlot_FallsBackToThePreviousCheckpoint()
    {
        var writer = new FileCheckpointStore(_dir.Path, TimeProvider.System);
        await writer.WriteAsync(_key, 10, 100, CancellationToken.None); // generation 1 → slot 1
        await writer.WriteAsync(_key, 11, 110, CancellationToken.None); // generation 2 → slot 0
        var newest = Slots()[0];
        var text = File.ReadAllText(newest);
        File.WriteAllText(newest, text[..(text.Length / 2)]); // a write cut short by a crash

        var read = await new FileCheckpointStore(_dir.Path, TimeProvider.System).ReadAsync(_key, CancellationToken.None);
        Assert.Equal(10, read!.SequenceNumber);
    }

    [Fact]
    public async Task ReadAsync_MixedOldAndNewBytes_FailTheChecksum()
    {
        var writer = new FileCheckpointStore(_dir.Path, TimeProvider.System);
        await writer.WriteAsync(_key, 10, 100, CancellationToken.None);
        await writer.WriteAsync(_key, 11, 110, CancellationToken.None);
        await writer.WriteAsync(_key, 12, 120, CancellationToken.None); // generation 3 → slot 1, over generation 1
        var slot1 = Slots()[1];
        File.WriteAllText(slot1, File.ReadAllText(slot1).Replace(" 12 ", " 19 ", StringComparison.Ordinal));

        var read = await new FileCheckpointStore(_dir.Path, TimeProvider.System).ReadAsync(_key, CancellationToken.None);
        Assert.Equal(11, read!.SequenceNumber);
    }

    [Fact]
    public async Task TornFirstWrite_IsNoCheckpoint_AndSaysSo()
    {
        var writer = new FileCheckpointStore(_dir.Path, TimeProvider.System);
        await writer.WriteAsync(_key, 10, 100, CancellationToken.None); // generation 1 → slot 1, no predecessor
        var only = Assert.Single(Slots());
        var text = File.ReadAllText(only);
        File.WriteAllText(only, text[..(text.Length / 2)]); // the crash cut the very first write short

        var logger = new CapturingLogger();
        var restarted = new FileCheckpointStore(_dir.Path, TimeProvider.System, logger: logger);
        Assert.Null(await restarted.ReadAsync(_key, CancellationToken.None));
        var entry = Assert.Single(logger.Entries);
        Assert.Equal(Microsoft.Extensions.Logging.LogLevel.Warning, entry.Level);
        Assert.Contains("initialOffsetOptions", entry.Message, StringComparison.Ordinal);

        // The next write replaces the torn slot, and a later start reads it.
        await restarted.WriteAsync(_key, 11, 110, CancellationToken.None);
        Assert.Equal(11, (await new FileCheckpointStore(_dir.Path, TimeProvider.System).ReadAsync(_key, CancellationToken.None))!.SequenceNumber);
    }

    [Fact]
    public async Task ReadAsync_NoCheckpointWritten_Null()
    {
        var store = new FileCheckpointStore(_dir.Path, TimeProvider.System);
        Assert.Null(await store.ReadAsync(_key, CancellationToken.None));
    }

    [Fact]
    public async Task ReadAsync_BothSlotsDamaged_ThrowsNoIntactCheckpoint()
    {
        var store = new FileCheckpointStore(_dir.Path, TimeProvider.System);
        await store.WriteAsync(_key, 1, 1, CancellationToken.None);
        await store.WriteAsync(_key, 2, 2, CancellationToken.None);
        foreach (var slot in Slots())
        {
            File.WriteAllText(slot, "garbage");
        }

        var error = await Assert.ThrowsAsync<InvalidDataException>(() => new FileCheckpointStore(_dir.Path, TimeProvider.System).ReadAsync(_key, CancellationToken.None));
        Assert.Contains("no intact checkpoint", error.Message, StringComparison.Ordinal);
    }
}
