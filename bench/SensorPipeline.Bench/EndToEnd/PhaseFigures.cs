namespace SensorPipeline.EndToEnd.Bench;

/// <summary>
/// What one phase measured. <paramref name="Seconds"/> is the denominator of documents/s (first send → drained for the
/// chain, the loop's wall time for the raw phase); <paramref name="SendSeconds"/> is loadgen's send phase.
/// </summary>
internal sealed record PhaseFigures(string Name, long Readings, long Documents, double Seconds, double SendSeconds,
    Dictionary<string, double?> CpuSeconds, LatencyFigures? Latency, string Notes)
{
    public double DocumentsPerSecond => Documents / Math.Max(Seconds, 1e-9);

    public double ReadingsPerSecond => Readings / Math.Max(SendSeconds, 1e-9);

    /// <summary>Events loadgen sent (one HTTP request each); 0 for the raw phase.</summary>
    public long Events { get; init; }

    /// <summary>Function invocations devhost made during the phase (all functions, succeeded + failed).</summary>
    public long Invocations { get; init; }

    /// <summary>The splitter's invocations during the phase (succeeded + failed).</summary>
    public long SplitterInvocations { get; init; }

    /// <summary>Events enqueued on the processor hubs during the phase: the splitter's envelopes.</summary>
    public long EnvelopeEvents { get; init; }

    /// <summary>Partitions of each processor hub.</summary>
    public int ProcessorPartitions { get; init; }

    /// <summary>CPU µs <paramref name="process"/> spent per one of <paramref name="count"/> things (readings, documents);
    /// null where its CPU was not measured or nothing was counted.</summary>
    public double? CpuMicrosPer(string process, long count) =>
        CpuSeconds.GetValueOrDefault(process) is { } seconds && count > 0 ? seconds * 1e6 / count : null;
}

/// <summary>End-to-end latency (ingestion enqueued → document written) in ms, exact to one histogram bucket.</summary>
internal sealed record LatencyFigures(long Count, double? P50, double? P90, double? P99, double? P999, double? Max);

/// <summary>The processes whose CPU time is attributed, by the names the table prints.</summary>
internal static class Processes
{
    public const string DevHost = "devhost";
    public const string Handler = "handler";
    public const string Cosmos = "cosmos stand-in";
    public const string LoadGen = "loadgen";
    public const string BenchClient = "bench's upsert client";
    public const string Machine = CpuMeter.Machine;

    public static readonly string[] All = [DevHost, Handler, Cosmos, LoadGen, BenchClient];

    public static Dictionary<string, int> Of(LocalPipeline pipeline, int? handlerPid)
    {
        var pids = new Dictionary<string, int> { [Cosmos] = pipeline.Cosmos.Id };
        if (pipeline.DevHost is { } devhost)
        {
            pids[DevHost] = devhost.Id;
        }

        if (handlerPid is { } pid)
        {
            pids[Handler] = pid;
        }

        return pids;
    }
}
