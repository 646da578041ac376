using SensorPipeline.Core.Policies;
using SensorPipeline.Core.Processing;
using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Splitting;
using SensorKind = SensorPipeline.Protos.SensorKind;

namespace SensorPipeline.Fuzz.Targets;

/// <summary>
/// An ingestion event body through the splitter (<see cref="ReadingBatchReader"/>, <see cref="ReadingDecoder"/>, the
/// validator, <see cref="EnvelopeWriter"/>), then every envelope it forwards through the processor of its kind. The
/// splitter never throws on bytes; what it forwards the processor must take whole: no dead letter, one document per
/// forwarded reading, every document JSON.
/// </summary>
internal static class ReadingBatchTarget
{
    /// <summary>A fixed clock: 2026-11-21T22:00:00Z, so a run is repeatable.</summary>
    public const long NowUnixMs = 1_795_298_400_000;

    internal static void Run(byte[] body)
    {
        var source = new SourcePosition("0", 42, NowUnixMs - 1_000);
        var result = new Splitter().Split([new InputEvent(body, source)], NowUnixMs);
        var forwarded = result.Kinds.Sum(k => Process(k.Definition.Kind, k.Envelopes, source));
        if (forwarded != result.Kinds.Sum(k => k.Readings))
        {
            throw new InvariantException($"the splitter forwarded {result.Kinds.Sum(k => k.Readings)} readings; the processors rendered {forwarded}");
        }

        if (result.DeadLetters.Count == 0 && forwarded != result.ReadingsReceived)
        {
            throw new InvariantException($"{result.ReadingsReceived} readings received, {forwarded} forwarded, none dead-lettered");
        }
    }

    /// <summary>The envelopes of one kind through its processor; returns the documents rendered.</summary>
    private static int Process(SensorKind kind, IReadOnlyList<ReadOnlyMemory<byte>> envelopes, SourcePosition source)
    {
        if (envelopes.Count == 0)
        {
            return 0;
        }

        using var processor = new EnvelopeProcessor(kind, "fuzz", new StalenessPolicy(TimeSpan.FromMinutes(5)));
        var result = processor.Process([.. envelopes.Select(e => new InputEvent(e, source))], NowUnixMs);
        if (result.DeadLetters.Count > 0)
        {
            throw new InvariantException($"the {kind} processor dead-lettered what the splitter forwarded: {result.DeadLetters[0].Reason}");
        }

        EnvelopeTarget.CheckDocuments(result);
        return result.Pending.Count;
    }
}
