using System.Text.Json;
using SensorPipeline.CosmosEmulator.Documents;
using SensorPipeline.CosmosEmulator.Query;
using SensorPipeline.Functions.Invocation;
using SensorPipeline.Fuzz.Targets;

namespace SensorPipeline.Fuzz;

/// <summary>
/// Every target, by name: one per parser that reads bytes from outside the process. The table the harness and its tests
/// run from: each target's name, what it drives and the refusals its parser documents; each target's own file says what
/// it checks beyond them, and the project's README describes them for a reader.
/// </summary>
internal static class FuzzTargets
{
    public static IReadOnlyList<FuzzTarget> All { get; } =
    [
        new("reading-batch",
            "core: an ingestion event through the splitter (ReadingBatchReader, ReadingDecoder, validation, envelopes), its envelopes through the processors",
            ReadingBatchTarget.Run),
        new("envelope",
            "core: a forward envelope through both processors (EnvelopeReader, ReadingDecoder, validation, GeoJSON, device state)",
            EnvelopeTarget.Run),
        new("handler-request",
            "functions: the custom-handler request (InvocationRequestReader, RequestStreamParser, TriggerArrayReader, metadata) whole and streamed in 7-byte reads",
            HandlerRequestTarget.Run, typeof(InvalidInvocationException)),
        new("eventhubs-batch",
            "Event Hubs emulator: the REST batch body (BatchParser: events, bodies, escaped bodies into the arena, properties, partition keys)",
            EventHubsBatchTarget.Run, typeof(EventHubs.Http.BatchFormatException)),
        new("eventhubs-log",
            "Event Hubs emulator: a segment file through PartitionLog recovery (header, durable mark, scan, torn tail), RecordDecoder and the stored properties",
            EventHubsLogTarget.Run, typeof(InvalidDataException)),
        new("amqp-message",
            "Event Hubs emulator's AMQP endpoint: a transfer's message sections through AmqpEventCodec.Decode (batches, bodies, properties, envelope) and back through Encode",
            AmqpMessageTarget.Run, typeof(FormatException), typeof(ArgumentException), typeof(OverflowException)),
        new("amqp-session",
            "Event Hubs emulator's AMQP endpoint past the Open: sessions, links, credit, $cbs put-token, $management reads, transfers, owner levels, detach and close, in-process over a pipe",
            AmqpSessionTarget.Run),
        new("cosmos-batch",
            "Cosmos DB emulator: the batch/bulk body (RecordIoFraming, HybridRow operations via BatchRequestReader)",
            CosmosBatchTarget.Run, typeof(CosmosEmulator.Batch.BatchFormatException)),
        new("cosmos-json",
            "Cosmos DB emulator: document bodies (DocumentBuilder, partition key), Patch bodies (PatchApplier, filter predicate), query bodies (QueryRunner)",
            CosmosJsonTarget.Run, typeof(StoreException), typeof(JsonException), typeof(SqlQueryException)),
        new("cosmos-sql",
            "Cosmos DB emulator's SQL engine: parser, query plan, index use, evaluator over documents, Patch filter predicates",
            CosmosSqlTarget.Run, typeof(SqlQueryException)),
        new("cosmos-log",
            "Cosmos DB emulator: a mutation log through the store's start (MutationLog recovery, MutationCodec, replay into databases, containers, documents)",
            CosmosLogTarget.Run, typeof(InvalidDataException)),
        new("appinsights-track",
            "App Insights sink: /v2/track envelopes (EnvelopeParser: MetricData items, tags, properties, times)",
            TrackTarget.Run),
    ];

    /// <summary>The target named <paramref name="name"/>, or null.</summary>
    public static FuzzTarget? Find(string name) => All.FirstOrDefault(t => t.Name == name);
}
