using System.Text.Json;
using Microsoft.Extensions.Logging.Abstractions;
using SensorPipeline.CosmosEmulator.Documents;
using SensorPipeline.CosmosEmulator.Hosting;
using SensorPipeline.CosmosEmulator.Queries;
using SensorPipeline.Emulators.Common;

namespace SensorPipeline.CosmosEmulator.Tests;

/// <summary>The store on a full disk (injected through the log's storage seam): a write that did not reach the log
/// leaves nothing visible, the store recovers by itself once there is room, and a compaction that meets the full disk
/// does not wedge it.</summary>
[Trait("Category", "Fast")]
public sealed class StoreDiskFullTests : IDisposable
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(30);
    private readonly string _directory = EmulatorClients.NewDataDirectory();

    /// <summary>Signals the first gather write it refuses (the seam's full disk). With no document write in flight that
    /// is the compaction's: the log's durable mark, also written while the disk is full, is a plain write.</summary>
    private sealed class SignallingStorage : LogStorage
    {
        public TaskCompletionSource Refused { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public override void Write(Microsoft.Win32.SafeHandles.SafeFileHandle file, IReadOnlyList<ReadOnlyMemory<byte>> buffers, long offset)
        {
            if (FailWrites)
            {
                Refused.TrySetResult();
            }

            base.Write(file, buffers, offset);
        }
    }

    private sealed class ManualClock(DateTimeOffset now) : TimeProvider
    {
        public DateTimeOffset Now { get; set; } = now;

        public override DateTimeOffset GetUtcNow() => Now;
    }

    [Fact]
    public async Task PatchAsync_GuardedOnAFullDisk_NothingVisibleUntilThereIsRoom()
    {
        var storage = new LogStorage();
        var options = new CosmosEmulatorOptions();
        var guard = QueryRunner.Predicate("FROM c WHERE c.version < 'v2'");
        await using (var store = Open(storage, options, TimeProvider.System))
        {
            var container = await ContainerAsync(store, defaultTtl: null);
            await store.Documents.WriteAsync(container, WriteKind.Upsert, null, null, Document("d1", "v1", 10), null);

            storage.FailWrites = true;
            await Assert.ThrowsAsync<IOException>(() => store.Documents.PatchAsync(container, "[\"d1\"]", "d1", SetVersion("v2"), guard, null));
            Assert.Equal("v1", VersionOf(store.Documents.Read(container, "[\"d1\"]", "d1")));

            // The retry meets the same refusal — not a 412 from a version that never became durable.
            await Assert.ThrowsAsync<IOException>(() => store.Documents.PatchAsync(container, "[\"d1\"]", "d1", SetVersion("v2"), guard, null));

            // Room again: the same request now succeeds, without a restart.
            storage.FailWrites = false;
            var patched = await store.Documents.PatchAsync(container, "[\"d1\"]", "d1", SetVersion("v2"), guard, null);
            Assert.Equal("v2", VersionOf(patched.Document));
        }

        await using var reopened = Open(new LogStorage(), options, TimeProvider.System);
        var database = reopened.Catalog.FindDatabase("db")!;
        Assert.Equal("v2", VersionOf(reopened.Documents.Read(reopened.Catalog.FindContainer(database, "devices")!, "[\"d1\"]", "d1")));
    }

    [Fact]
    public async Task CompactionOnAFullDisk_DoesNotWedgeTheStore_AndCompactsOnceThereIsRoom()
    {
        var storage = new SignallingStorage();
        var clock = new ManualClock(DateTimeOffset.UtcNow);
        // Interval durability: its flush timer runs the compaction check with no write in flight.
        var options = new CosmosEmulatorOptions
        {
            Durability = DurabilityMode.Interval,
            FlushInterval = TimeSpan.FromMilliseconds(20),
            CompactionThresholdBytes = 16 * 1024,
            TimeToLivePurgeInterval = TimeSpan.FromMilliseconds(20),
        };
        await using var store = Open(storage, options, clock);
        var container = await ContainerAsync(store, defaultTtl: 60);
        for (var i = 0; i < 40; i++)
        {
            await store.Documents.WriteAsync(container, WriteKind.Upsert, null, null, Document($"d{i}", "v1", 1000), null);
        }

        // The documents expire: the log is now mostly dead, and the compaction it triggers meets the full disk.
        storage.FailWrites = true;
        clock.Now += TimeSpan.FromMinutes(2);
        await storage.Refused.Task.WaitAsync(Patience);

        storage.FailWrites = false;
        await store.Documents.WriteAsync(container, WriteKind.Upsert, null, null, Document("after", "v1", 10), null);
        Assert.Equal("v1", VersionOf(store.Documents.Read(container, "[\"after\"]", "after")));

        // Once the log has grown by another threshold, the compaction is tried again and succeeds.
        for (var i = 0; i < 20 && store.Log.Compactions == 0; i++)
        {
            await store.Documents.WriteAsync(container, WriteKind.Upsert, null, null, Document("after", $"v{i}", 1000), null);
        }

        Assert.Equal(1, store.Log.Compactions);
    }

    private EmulatorStore Open(LogStorage storage, CosmosEmulatorOptions options, TimeProvider clock) =>
        EmulatorStore.Open(_directory, options, clock, NullLogger.Instance, storage);

    private static async Task<ContainerState> ContainerAsync(EmulatorStore store, int? defaultTtl)
    {
        using var db = JsonDocument.Parse("""{"id":"db"}""");
        var database = await store.Metadata.CreateDatabaseAsync(db.RootElement);
        var ttl = defaultTtl is { } seconds ? $",\"defaultTtl\":{seconds}" : "";
        using var definition = JsonDocument.Parse($$"""{"id":"devices","partitionKey":{"paths":["/id"],"kind":"Hash","version":2}{{ttl}}}""");
        return await store.Metadata.CreateContainerAsync(database, definition.RootElement);
    }

    private static ReadOnlyMemory<byte> Document(string id, string version, int padding) =>
        Encoding.UTF8.GetBytes($$"""{"id":"{{id}}","version":"{{version}}","padding":"{{new string('p', padding)}}"}""");

    private static List<PatchOperation> SetVersion(string version) =>
        PatchApplier.ParseOperations(System.Text.Json.Nodes.JsonNode.Parse($$"""[{"op":"set","path":"/version","value":"{{version}}"}]""")!.AsArray());

    private static string? VersionOf(StoredDocument document)
    {
        using var parsed = JsonDocument.Parse(document.Json);
        return parsed.RootElement.GetProperty("version").GetString();
    }

    public void Dispose()
    {
        if (Directory.Exists(_directory))
        {
            Directory.Delete(_directory, recursive: true);
        }
    }
}
