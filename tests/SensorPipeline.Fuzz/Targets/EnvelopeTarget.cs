using System.Text.Json;
using SensorPipeline.Core.Policies;
using SensorPipeline.Core.Processing;
using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Splitting;
using SensorKind = SensorPipeline.Protos.SensorKind;

namespace SensorPipeline.Fuzz.Targets;

/// <summary>
/// A processor's event body, the envelope's protobuf bytes, through <see cref="EnvelopeProcessor"/>:
/// <see cref="EnvelopeReader"/>, <see cref="ReadingDecoder"/>, validation, GeoJSON and device-state rendering. The
/// processor never throws on bytes: what it cannot use it dead-letters; what it renders must be JSON.
/// </summary>
internal static class EnvelopeTarget
{
    internal static void Run(byte[] input)
    {
        var source = new SourcePosition("0", 7, ReadingBatchTarget.NowUnixMs);
        foreach (var kind in (ReadOnlySpan<SensorKind>)[SensorKind.Weather, SensorKind.Seismic])
        {
            using var processor = new EnvelopeProcessor(kind, "fuzz", new StalenessPolicy(TimeSpan.FromMinutes(5)));
            var result = processor.Process([new InputEvent(input, source)], ReadingBatchTarget.NowUnixMs);
            var readingLetters = result.DeadLetters.Count(d => d.ReadingIndex is not null);
            if (result.Pending.Count + readingLetters != result.ReadingsReceived)
            {
                throw new InvariantException($"{result.ReadingsReceived} readings received, {result.Pending.Count} rendered, {readingLetters} dead-lettered");
            }

            CheckDocuments(result);
        }
    }

    /// <summary>Every rendered document and device state parses as a JSON object (the writer skips validation).</summary>
    public static void CheckDocuments(ProcessResult result)
    {
        foreach (var pending in result.Pending)
        {
            CheckJson(result.Bytes(pending), "document");
        }

        foreach (var latest in result.Latest.Concat(result.StaleStates.Select(s => s.State)))
        {
            CheckJson(result.Documents.Slice(latest.DocumentOffset, latest.DocumentLength), "device state");
        }
    }

    private static void CheckJson(ReadOnlyMemory<byte> json, string what)
    {
        try
        {
            using var document = JsonDocument.Parse(json);
            if (document.RootElement.ValueKind != JsonValueKind.Object)
            {
                throw new InvariantException($"a rendered {what} is not a JSON object");
            }
        }
        catch (JsonException e)
        {
            throw new InvariantException($"a rendered {what} is not JSON: {e.Message}");
        }
    }
}
