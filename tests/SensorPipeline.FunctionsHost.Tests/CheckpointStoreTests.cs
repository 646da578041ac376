using SensorPipeline.FunctionsHost.Checkpoints;

namespace SensorPipeline.FunctionsHost.Tests;

public sealed class CheckpointStoreTests : IDisposable
{
    private readonly string _root = Path.Combine(Path.GetTempPath(), "fh-cp-" + Guid.NewGuid().ToString("N")[..12]);

    public void Dispose()
    {
        if (Directory.Exists(_root))
        {
            Directory.Delete(_root, recursive: true);
        }
    }

    [Fact]
    public async Task WriteThenRead_RoundTrips_AcrossInstances_NoTemporaryFileLeft()
    {
        var key = new CheckpointKey("Ingestion", "$Default", "3");
        await new FileCheckpointStore(_root, TimeProvider.System).WriteAsync(key, 41, 4096, CancellationToken.None);
        await new FileCheckpointStore(_root, TimeProvider.System).WriteAsync(key, 42, 8192, CancellationToken.None);

        Checkpoint? read = await new FileCheckpointStore(_root, TimeProvider.System).ReadAsync(key with { Hub = "ingestion" }, CancellationToken.None);
        Assert.Equal(42, read!.SequenceNumber);
        Assert.Equal(8192, read.Offset);
        Assert.Empty(Directory.GetFiles(_root, "*.tmp", SearchOption.AllDirectories));
    }

    [Fact]
    public async Task Read_Missing_IsNull_Corrupt_Throws()
    {
        var store = new FileCheckpointStore(_root, TimeProvider.System);
        var key = new CheckpointKey("h", "g", "0");
        Assert.Null(await store.ReadAsync(key, CancellationToken.None));
        await store.WriteAsync(key, 1, 1, CancellationToken.None);
        string file = Directory.GetFiles(_root, "*.json", SearchOption.AllDirectories).Single();
        File.WriteAllText(file, "{\"sequenceNumber\": ");
        var error = await Assert.ThrowsAsync<InvalidDataException>(() => store.ReadAsync(key, CancellationToken.None));
        Assert.Contains(file, error.Message, StringComparison.Ordinal);
    }
}
