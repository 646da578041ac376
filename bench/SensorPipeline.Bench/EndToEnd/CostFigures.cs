using System.Text.Json;

namespace SensorPipeline.EndToEnd.Bench;

/// <summary>
/// What one reading cost the local chain, from one phase, the Cosmos DB emulator's charge ledger over it (RU by
/// container and operation, as the documented model bills them) and devhost's telemetry summary (the handler's own
/// <c>CosmosRequestCharge</c>, a cross-check). TTL deletes come after the retention, not within the chain's run: they are
/// measured on a sample of the run's readings (<see cref="CostLevers"/>). Telemetry is printed, not written: the local stack
/// flushes metrics every 2 s where Azure's settings flush every 5 minutes, so its bytes per hour say nothing about
/// Azure's (the plan keeps the figure measured with Azure's settings).
/// </summary>
internal sealed record CostFigures(
    long Readings,
    IReadOnlyDictionary<string, double> RuPerReadingByContainer,
    IReadOnlyList<(string Container, string Operation, long Count, double RequestUnits)> ByOperation,
    double HandlerReportedRuPerReading,
    double HandlerMicros,
    double DevHostMicros,
    double InvocationsPerReading,
    double TelemetryBytesPerInstanceHour,
    LeverFigures Levers)
{
    /// <summary>The functions, each one Functions-host instance locally: the telemetry per instance divides by them.</summary>
    private const int LocalInstances = 3;

    // The handler runs all three functions in one process, so its CPU is split with the defaults' ratio (15 : 114 µs).
    private const double SplitterShare = 15.0 / 129.0;

    private static readonly JsonSerializerOptions Indented = new() { WriteIndented = true };

    /// <summary>Each container's partition key ranges and bulk requests over the phase.</summary>
    public IReadOnlyList<ContainerRequests> Requests { get; init; } = [];

    /// <summary>RU per reading the chain was charged for its writes (every container).</summary>
    public double RuPerReading => RuPerReadingByContainer.Values.Sum();

    /// <summary>With the reading's TTL expiry, measured on a sample under the deployed policy.</summary>
    public double RuPerReadingWithTtl => RuPerReading + Levers.ExpiryRuPerReading;

    public static CostFigures From(PhaseFigures phase, JsonElement summary, IReadOnlyList<(string Container, string Operation, long Count, double RequestUnits)> charges, LeverFigures levers)
    {
        var readings = Math.Max(1, phase.Readings);
        var ru = charges.Where(c => c.Operation != "expiry").GroupBy(c => c.Container, StringComparer.Ordinal)
            .ToDictionary(g => g.Key, g => g.Sum(c => c.RequestUnits) / readings, StringComparer.Ordinal);
        var reported = summary.GetProperty("cosmos").EnumerateArray().Sum(c => c.GetProperty("requestUnits").GetDouble()) / readings;

        var ingestion = summary.GetProperty("ingestion");
        var bytesPerHour = ingestion.TryGetProperty("uncompressedBytesPerHour", out var b) && b.ValueKind == JsonValueKind.Number ? b.GetDouble() : 0;
        return new CostFigures(
            phase.Readings,
            new SortedDictionary<string, double>(ru, StringComparer.Ordinal),
            charges,
            reported,
            Micros(phase, Processes.Handler, readings),
            Micros(phase, Processes.DevHost, readings),
            (double)phase.Invocations / readings,
            bytesPerHour / LocalInstances,
            levers);
    }

    private static double Micros(PhaseFigures phase, string process, long readings) => phase.CpuMicrosPer(process, readings) ?? 0;

    private double Ru(string container) => RuPerReadingByContainer.TryGetValue(container, out var v) ? v : 0;

    /// <summary>The per-reading inputs <c>./pipeline plan</c> reads (.pipeline/bench-cost.json), each saying where it comes from.</summary>
    public string ToBenchCostJson(DateTimeOffset at)
    {
        var when = at.ToString("yyyy-MM-dd HH:mm 'UTC'", CultureInfo.InvariantCulture);
        var from = $"./pipeline bench cost, {when}, {Readings:N0} readings";
        var values = new Dictionary<string, object>
        {
            ["ru.readingUpsert"] = Entry(Ru("readings"), $"{from}: the emulator's charges on readings per reading (documented model)"),
            ["ru.ttlDelete"] = Entry(Levers.ExpiryRuPerReading, $"{from}: the emulator's TTL expiry charge of {CostLevers.Sample} of the run's readings under the deployed policy (TTL 1 s, documented model)"),
            ["ru.archiveUpsert"] = Entry(Levers.ArchiveCreateRu, $"{from}: the run's readings created under the archive's deployed policy (documented model)"),
            ["bytes.storedReading"] = Entry(Levers.StoredReadingBytes, $"{from}: a reading as stored, system properties included (index not counted: 4 terms per reading, not measurable here)"),
            ["ru.devicePatch"] = Entry(Ru("devices"), $"{from}: the emulator's charges on devices per reading, patches and 412s (one device write per reading in loadgen's shape)"),
            ["cpu.splitterMicros"] = Entry(HandlerMicros * SplitterShare, $"{from}: handler CPU per reading x 15/129 (one process runs all three functions)"),
            ["cpu.processorMicros"] = Entry(HandlerMicros * (1 - SplitterShare), $"{from}: handler CPU per reading x 114/129"),
            ["cpu.hostMicros"] = Entry(DevHostMicros, $"{from}: devhost CPU per reading (Event Hubs emulator + Functions host), standing in for the Functions host"),
        };
        return JsonSerializer.Serialize(new { about = "Written by ./pipeline bench cost; read by ./pipeline plan in place of the checked-in defaults.", values },
            Indented) + Environment.NewLine;
    }

    private static object Entry(double value, string from) => new { value = Math.Round(value, 4), from };
}
