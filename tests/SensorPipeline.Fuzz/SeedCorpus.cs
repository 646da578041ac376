using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Splitting;
using SensorPipeline.Fuzz.Targets;
using SensorPipeline.Protos;
using SensorPipeline.Testing;

namespace SensorPipeline.Fuzz;

/// <summary>
/// Writes each target's seed inputs, made by the real encoders (Google.Protobuf, the splitter, the Functions host's
/// request writer, the emulators' own log writers, the .NET SDK's batch encoding): <c>seed-*</c> files in
/// <c>corpus/&lt;target&gt;/</c>. Crash inputs found by afl++ sit beside them as <c>crash-*</c> and are never rewritten.
/// </summary>
internal static partial class SeedCorpus
{
    public static int Write(string folder)
    {
        var inputsByTarget = new Dictionary<string, IEnumerable<(string Name, byte[] Bytes)>>
        {
            ["reading-batch"] = ReadingBatches(),
            ["envelope"] = Envelopes(),
            ["handler-request"] = HandlerRequests(),
            ["eventhubs-batch"] = EventHubsBatches(),
            ["cosmos-batch"] = CosmosBatches(),
            ["cosmos-json"] = CosmosBodies(),
            ["cosmos-sql"] = CosmosQueries(),
            ["appinsights-track"] = TrackBodies(),
            ["eventhubs-log"] = EventHubsLogs(),
            ["cosmos-log"] = CosmosLogs(),
            ["amqp-message"] = AmqpMessages(),
            ["amqp-session"] = AmqpSessions(),
        };
        foreach (var (target, inputs) in inputsByTarget)
        {
            var directory = Directory.CreateDirectory(Path.Combine(folder, target)).FullName;
            foreach (var (name, bytes) in inputs)
            {
                File.WriteAllBytes(Path.Combine(directory, "seed-" + name), bytes);
            }
        }

        return 0;
    }

    /// <summary>When every seed reading was observed: just before the targets' fixed clock, so none is stale.</summary>
    private static readonly DateTimeOffset ObservedAt = DateTimeOffset.FromUnixTimeMilliseconds(ReadingBatchTarget.NowUnixMs - 2_000);

    private static Reading Weather(string device, ulong sequence) => Builders.Weather(device, sequence, observed: ObservedAt);

    private static Reading Seismic(string device, ulong sequence) => Builders.Seismic(device, sequence, observed: ObservedAt);

    private static IEnumerable<(string, byte[])> ReadingBatches()
    {
        yield return ("weather-one", Builders.Batch(Weather("weather-0001", 1)));
        yield return ("seismic-one", Builders.Batch(Seismic("seismic-0001", 1)));
        yield return ("mixed-three", Builders.Batch(Weather("weather-0002", 7), Seismic("seismic-0002", 3), Weather("weather-0003", 1)));
        var invalid = Weather("weather-0004", 2);
        invalid.Weather.TemperatureC = double.NaN;
        yield return ("one-invalid", Builders.Batch(Weather("weather-0005", 1), invalid));
    }

    /// <summary>The envelopes the real splitter forwards for the reading batches, as they travel.</summary>
    private static IEnumerable<(string, byte[])> Envelopes()
    {
        var source = new Core.Readings.SourcePosition("3", 1234, ReadingBatchTarget.NowUnixMs - 1_000);
        var result = new Splitter().Split([new InputEvent(Builders.Batch(Weather("weather-0002", 7), Seismic("seismic-0002", 3), Weather("weather-0003", 1)), source)],
            ReadingBatchTarget.NowUnixMs);
        yield return ("weather-two", result.Of(SensorKind.Weather).Envelopes[0].ToArray());
        yield return ("seismic-one", result.Of(SensorKind.Seismic).Envelopes[0].ToArray());
    }
}
