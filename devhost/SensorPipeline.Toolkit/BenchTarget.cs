using System.Globalization;

namespace SensorPipeline.Toolkit;

/// <summary>
/// A benchmark's target: a bound on one figure, either at most (<see cref="AtMost"/>: a latency, a memory peak, readings
/// lost) or at least (<see cref="NoLessThan"/>: a rate, a ratio to a baseline), and the verdict on what a run measured.
/// The benches print each target beside its figure with this verdict; a target is never a test's assertion.
/// </summary>
/// <param name="Bound">The bound, in the figure's own unit.</param>
/// <param name="AtLeast">True: the figure must reach the bound; false: it must not exceed it.</param>
public readonly record struct BenchTarget(double Bound, bool AtLeast)
{
    /// <summary>The figure must not exceed <paramref name="bound"/> (the bound itself meets it).</summary>
    public static BenchTarget AtMost(double bound) => new(bound, AtLeast: false);

    /// <summary>The figure must reach <paramref name="bound"/> (the bound itself meets it).</summary>
    public static BenchTarget NoLessThan(double bound) => new(bound, AtLeast: true);

    /// <summary>The verdict on <paramref name="measured"/>: not measured when there is no finite figure.</summary>
    public TargetVerdict Judge(double? measured) => measured is not { } m || !double.IsFinite(m)
        ? TargetVerdict.NotMeasured
        : (AtLeast ? m >= Bound : m <= Bound) ? TargetVerdict.Met : TargetVerdict.Missed;

    /// <summary><paramref name="measured"/> as a multiple of <paramref name="baseline"/>; null when either is not a
    /// positive finite figure (a baseline of 0 measured nothing, so no ratio can meet a target).</summary>
    public static double? Ratio(double? measured, double? baseline) =>
        measured is { } m && baseline is { } b && double.IsFinite(m) && double.IsFinite(b) && m >= 0 && b > 0 ? m / b : null;

    /// <summary>The bound as a table prints it: <c>≤ 1,000 ms</c>, <c>≥ 0.80×</c>.</summary>
    public string Describe(string format, string unit) =>
        string.Create(CultureInfo.InvariantCulture, $"{(AtLeast ? "≥" : "≤")} {Bound.ToString(format, CultureInfo.InvariantCulture)}{unit}");
}

/// <summary>How a figure stands against its <see cref="BenchTarget"/>.</summary>
public enum TargetVerdict
{
    /// <summary>The run produced no figure (no readings counted, a baseline of 0).</summary>
    NotMeasured,

    /// <summary>Within the bound.</summary>
    Met,

    /// <summary>Past the bound.</summary>
    Missed,
}

/// <summary>The words the bench tables print for a <see cref="TargetVerdict"/>.</summary>
public static class TargetVerdicts
{
    /// <summary><c>met</c>, <c>**missed**</c> (bold in the Markdown tables, so a miss stands out) or <c>not measured</c>.</summary>
    public static string Text(this TargetVerdict verdict) => verdict switch
    {
        TargetVerdict.Met => "met",
        TargetVerdict.Missed => "**missed**",
        _ => "not measured",
    };
}
