using System.Text.Json;
using Microsoft.Extensions.Logging.Abstractions;
using SensorPipeline.CosmosEmulator.Documents;
using SensorPipeline.CosmosEmulator.Hosting;
using SensorPipeline.CosmosEmulator.Log;
using SensorPipeline.Emulators.Common;
using SensorPipeline.EventHubs;
using SensorPipeline.EventHubs.Storage;
using SensorPipeline.Fuzz.Targets;
using SensorPipeline.Testing;

namespace SensorPipeline.Fuzz;

internal static partial class SeedCorpus
{
    /// <summary>Segment files the Event Hubs emulator's own writer wrote (events with bodies, keys and properties), as
    /// they are (mode 0) and to be resealed by the harness after mutation (mode 1); and one with a torn last record.</summary>
    private static IEnumerable<(string, byte[])> EventHubsLogs()
    {
        var directory = ScratchDirectory.Fresh("seed-eventhubs");
        var options = new EventLogOptions { Durability = DurabilityMode.Always };
        var log = PartitionLog.Open("hub", "0", directory, options, TimeProvider.System, NullLogger.Instance, new LogStorage(), new EventHubsCounters());
        try
        {
            log.AppendAsync([
                new(Builders.Batch(Weather("weather-0001", 1)), null, null),
                new(Builders.Batch(Seismic("seismic-0001", 1)), "seismic-0001", new Dictionary<string, object?> { ["source"] = "loadgen", ["n"] = 3L, ["ok"] = true, ["x"] = null, ["v"] = 1.5 }),
            ], CancellationToken.None).AsTask().GetAwaiter().GetResult();
            log.AppendAsync([new("third"u8.ToArray(), "k", null)], CancellationToken.None).AsTask().GetAwaiter().GetResult();
        }
        finally
        {
            log.DisposeAsync().AsTask().GetAwaiter().GetResult();
        }

        var file = File.ReadAllBytes(Path.Combine(directory, Segment.FileName(0)));
        yield return ("three-events", [0, .. file]);
        yield return ("three-events-sealed", [1, .. file]);
        // A crash mid-append leaves part of a record past the durable mark: never acknowledged, cut at the start.
        var last = file.AsSpan(file.Length - 12);
        yield return ("torn-tail", [0, .. file, .. last[..7]]);
        // The same cut inside what the durable mark says was acknowledged: the start is refused.
        yield return ("damage-before-mark", [0, .. file[..^5]]);
    }

    /// <summary>Mutation logs the Cosmos DB emulator's own store wrote: a database, a container, documents written,
    /// replaced and deleted; as they are (mode 0), resealed (mode 1), and with a torn last record.</summary>
    private static IEnumerable<(string, byte[])> CosmosLogs()
    {
        var directory = ScratchDirectory.Fresh("seed-cosmos");
        var store = EmulatorStore.Open(directory, new CosmosEmulatorOptions { Durability = DurabilityMode.Always }, TimeProvider.System, NullLogger.Instance, new LogStorage());
        try
        {
            Write(store).GetAwaiter().GetResult();
        }
        finally
        {
            store.DisposeAsync().AsTask().GetAwaiter().GetResult();
        }

        var file = File.ReadAllBytes(Path.Combine(directory, MutationLog.FileName));
        yield return ("store-writes", [0, .. file]);
        yield return ("store-writes-sealed", [1, .. file]);
        yield return ("torn-tail", [0, .. file, .. file.AsSpan(LogFormat.FileHeaderSize, 11)]);
        yield return ("damage-before-mark", [0, .. file[..^3]]);
    }

    private static async Task Write(EmulatorStore store)
    {
        using var databaseBody = JsonDocument.Parse("""{"id":"sensorpipeline"}""");
        var database = await store.Metadata.CreateDatabaseAsync(databaseBody.RootElement);
        using var containerBody = JsonDocument.Parse("""{"id":"devices","partitionKey":{"paths":["/deviceId"],"kind":"Hash","version":2},"defaultTtl":-1}""");
        var container = await store.Metadata.CreateContainerAsync(database, containerBody.RootElement);
        await store.Documents.WriteAsync(container, WriteKind.Upsert, "[\"weather-0001\"]", null, """{"id":"weather-0001","deviceId":"weather-0001","version":"1","ttl":3600}"""u8.ToArray(), null);
        await store.Documents.WriteAsync(container, WriteKind.Upsert, "[\"weather-0001\"]", null, """{"id":"weather-0001","deviceId":"weather-0001","version":"2"}"""u8.ToArray(), null);
        await store.Documents.WriteAsync(container, WriteKind.Create, "[\"seismic-0001\"]", null, """{"id":"seismic-0001","deviceId":"seismic-0001","n":[1,2]}"""u8.ToArray(), null);
        await store.Documents.DeleteAsync(container, "[\"seismic-0001\"]", "seismic-0001", null);
    }
}
