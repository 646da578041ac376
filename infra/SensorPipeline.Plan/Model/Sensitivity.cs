namespace SensorPipeline.Plan.Model;

/// <summary>One sensitivity row: the plan again with one input changed.</summary>
internal sealed record SensitivityRow(string Label, bool ThisPlan, PlanResult Plan);

/// <summary>
/// The plan with its two least certain inputs varied. The processors' CPU per reading: the ranges bench's one-range and
/// many-range figures net of idle, and its many-range figure gross (the bench process's idle counted as load); the
/// Functions host's CPU is no longer varied, as the processors' own dominates it. The index terms of a GeoJSON Point:
/// 1, 4 and 8 (the emulator counts 1; the service documents no count).
/// </summary>
internal sealed record Sensitivity(IReadOnlyList<SensitivityRow> ProcessorCpu, IReadOnlyList<SensitivityRow> SpatialTerms)
{
    public static IReadOnlyList<double> SpatialTermCounts { get; } = [1, 4, 8];

    public static Sensitivity Of(PlanRequest request, ReadingCosts costs, PriceBook book)
    {
        var plan = Planner.Plan(request, costs, book);
        var chosen = plan.Costs.ProcessorCpuMicros;
        var figures = costs.Ranges is { } r
            ? new[] { (r.OneRangeNetMicros, "1 range, net of idle"), (r.ManyRangesNetMicros, $"{r.Ranges:N0} ranges, net of idle"), (r.ManyRangesGrossMicros, $"{r.Ranges:N0} ranges, gross") }
            : [(chosen, "the costs' figure"), (chosen * 2, "twice it"), (chosen * 4, "four times it")];
        var cpu = figures.Select(f => new SensitivityRow($"{f.Item1:N0} µs ({f.Item2})", Math.Abs(f.Item1 - chosen) < 1e-9,
            Planner.Plan(request, costs.With("cpu.processorMicros", f.Item1, $"sensitivity row: {f.Item2}"), book))).ToArray();
        var spatial = SpatialTermCounts.Select(n => new SensitivityRow($"{n:0} term{(n == 1 ? "" : "s")} per Point", Math.Abs(n - costs.SpatialTerms) < 1e-9,
            Planner.Plan(request, costs.WithSpatialTerms(n), book))).ToArray();
        return new Sensitivity(cpu, spatial);
    }
}
