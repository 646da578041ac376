using Google.Protobuf;
using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Splitting;

namespace SensorPipeline.Redrive;

/// <summary>Which hub a re-driven dead letter goes to: the ingestion hub, or a kind's processor hub (by kind name).</summary>
public readonly record struct RedriveHub(string? Kind)
{
    public static RedriveHub Ingestion => default;

    public static RedriveHub OfKind(string kind) => new(kind);

    public override string ToString() => Kind ?? "ingestion";
}

/// <summary>What to re-send for one dead letter: a hub and the event's bytes, or why it cannot be re-driven.</summary>
public sealed record RedrivePlan(RedriveHub? Hub, ReadOnlyMemory<byte> Body, string? Skip)
{
    public static RedrivePlan Send(RedriveHub hub, ReadOnlyMemory<byte> body) => new(hub, body, null);

    public static RedrivePlan Skipped(string why) => new(null, ReadOnlyMemory<byte>.Empty, why);
}

/// <summary>
/// Decides where a dead letter's bytes go back in, from what the dead letter records (core's DeadLetterWriter):
/// <list type="bullet">
/// <item>a whole event (no <c>readingIndex</c>) goes back to the hub its stage reads — the splitter's to the ingestion hub,
/// a processor's (its envelope, byte for byte) to that processor's hub;</item>
/// <item>one reading (a <c>readingIndex</c>) holds only the reading's protobuf bytes, no envelope: it goes to the
/// ingestion hub as a batch of that one reading, so the splitter validates and routes it as it would any reading — a
/// store refusal (stage <c>…-store</c>) too: it holds the refused document's reading, and the pipeline writes the
/// document again, the device's state through its guard;</item>
/// <item>a <c>many-invalid-readings</c> letter holds only the event's invalid readings as one batch (its valid ones were
/// forwarded): it goes back whole to the ingestion hub, and no reading is forwarded twice;</item>
/// <item>a reduced dead letter holds only the first bytes: it cannot be re-sent.</item>
/// </list>
/// </summary>
public static class DeadLetterRoute
{
    /// <summary>The processors' stage names (each kind's consumer group, as functions' ProcessorDefinition names them) and the hub each reads.</summary>
    private static readonly Dictionary<string, RedriveHub> ProcessorStages =
        SensorKindCatalog.Default.All.ToDictionary(static k => k.ConsumerGroup, static k => RedriveHub.OfKind(k.Name), StringComparer.Ordinal);

    /// <summary>The suffix of a processor's store-refusal stage (functions' ProcessorFunction).</summary>
    private const string StoreSuffix = "-store";

    public static RedrivePlan Plan(string stage, int? readingIndex, bool reduced, ReadOnlyMemory<byte> payload)
    {
        ArgumentNullException.ThrowIfNull(stage);
        if (reduced)
        {
            return RedrivePlan.Skipped("stored reduced (only its first bytes were kept): match payloadSha256 against a copy kept elsewhere");
        }

        var storeRefusal = stage.EndsWith(StoreSuffix, StringComparison.Ordinal);
        var processorStage = storeRefusal ? stage[..^StoreSuffix.Length] : stage;
        RedriveHub? hub = stage == Splitter.Stage ? RedriveHub.Ingestion
            : ProcessorStages.TryGetValue(processorStage, out var processor) ? processor
            : null;
        if (hub is null)
        {
            return RedrivePlan.Skipped($"unknown stage '{stage}'");
        }

        return readingIndex is null && !storeRefusal ? RedrivePlan.Send(hub.Value, payload) : RedrivePlan.Send(RedriveHub.Ingestion, AsBatchOfOne(payload.Span));
    }

    /// <summary>The ingestion format (readings.proto: <c>ReadingBatch { repeated Reading readings = 1; }</c>) around the
    /// reading's exact bytes: field 1, wire type 2 (length-delimited), the length as a varint, the bytes. Not re-encoded,
    /// so what the splitter sees is what was dead-lettered.</summary>
    public static byte[] AsBatchOfOne(ReadOnlySpan<byte> reading)
    {
        var bytes = ByteString.CopyFrom(reading);
        var batch = new byte[CodedOutputStream.ComputeTagSize(1) + CodedOutputStream.ComputeBytesSize(bytes)];
        var output = new CodedOutputStream(batch);
        output.WriteTag(1, WireFormat.WireType.LengthDelimited);
        output.WriteBytes(bytes);
        output.CheckNoSpaceLeft();
        return batch;
    }
}
