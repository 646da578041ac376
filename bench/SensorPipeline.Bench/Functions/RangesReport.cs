namespace SensorPipeline.Functions.Bench;

/// <summary>
/// What <see cref="RangesBench"/> prints: per contender the median and spread (lowest–highest) of its rounds' CPU per
/// reading, gross and net of the process's idle, and of operations per bulk request; then the two targets at many
/// ranges with the devices by the splitter's routing, each met or missed beside the one-range baseline of the same run.
/// </summary>
internal sealed class RangesReport(IReadOnlyList<RangesContender> contenders, RangesContender oneRange, RangesContender manyRanges, double idle)
{
    /// <summary>Handler CPU per reading at many ranges, net of idle: twice the plan's one-range figure (56.3 µs, <c>bench cost</c>).</summary>
    public const double NetMicrosTarget = 112;

    /// <summary>Writes per bulk request at many ranges.</summary>
    public const double OperationsTarget = 20;

    public double Idle => idle;

    public Spread OneRangeNet => Spread.Of(oneRange.Tally.RoundCpuPerReading(idle));

    public Spread OneRangeGross => Spread.Of(oneRange.Tally.RoundCpuPerReading(0));

    public Spread ManyRangesNet => Spread.Of(manyRanges.Tally.RoundCpuPerReading(idle));

    public Spread ManyRangesGross => Spread.Of(manyRanges.Tally.RoundCpuPerReading(0));

    public Spread ManyRangesOperations => Spread.Of(manyRanges.RoundOperationsPerRequest);

    public Spread OneRangeOperations => Spread.Of(oneRange.RoundOperationsPerRequest);

    public bool NetMet => ManyRangesNet.Median <= NetMicrosTarget;

    public bool OperationsMet => ManyRangesOperations.Median >= OperationsTarget;

    public void Print()
    {
        Console.WriteLine($"  CPU: this process (it hosts the handler; the emulators are their own processes), per round, gross and net of its idle {idle * 1000:F0} ms per second;");
        Console.WriteLine($"  bulk: the emulator's ledger on readings, per round. Median [lowest–highest] of {oneRange.RoundOperationsPerRequest.Count} rounds:");
        Console.WriteLine($"    {"contender",-52} {"µs/reading net",22} {"gross",22} {"operations per bulk request",30}");
        foreach (var c in contenders)
        {
            var (requests, operations) = c.Bulk;
            Console.WriteLine($"    {c.Name,-52} {Spread.Of(c.Tally.RoundCpuPerReading(idle)),22} {Spread.Of(c.Tally.RoundCpuPerReading(0)),22} {Spread.Of(c.RoundOperationsPerRequest),16} ({operations:N0} in {requests:N0})");
        }

        Console.WriteLine($"  target: handler CPU per reading at many ranges, routed by the key space <= {NetMicrosTarget:F0} µs net: {ManyRangesNet} µs, "
            + $"{ManyRangesNet.Median / Math.Max(0.001, OneRangeNet.Median):F2}x the one-range {OneRangeNet} µs of this run  {(NetMet ? "met" : "MISSED")}");
        Console.WriteLine($"  target: writes per bulk request at many ranges, routed by the key space >= {OperationsTarget:F0}: {ManyRangesOperations} "
            + $"(one range in this run: {OneRangeOperations})  {(OperationsMet ? "met" : "MISSED")}");
    }
}

/// <summary>The median and the lowest and highest of some rounds' figures.</summary>
internal readonly record struct Spread(double Median, double Lowest, double Highest)
{
    public static Spread Of(IReadOnlyList<double> values)
    {
        if (values.Count == 0)
        {
            return new Spread(double.NaN, double.NaN, double.NaN);
        }

        var sorted = values.Order().ToArray();
        var middle = sorted.Length / 2;
        var median = sorted.Length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
        return new Spread(median, sorted[0], sorted[^1]);
    }

    public override string ToString() => string.Create(CultureInfo.InvariantCulture, $"{Median:F1} [{Lowest:F1}–{Highest:F1}]");
}
