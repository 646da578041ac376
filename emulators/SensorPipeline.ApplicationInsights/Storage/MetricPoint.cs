namespace SensorPipeline.ApplicationInsights.Storage;

/// <summary>
/// One pre-aggregated metric item as Application Insights stores it in <c>customMetrics</c>: the period's
/// sum (valueSum), count (valueCount), min and max, with its dimensions (customDimensions).
/// </summary>
/// <param name="Sequence">Arrival order in this devhost (1, 2, …), for paging with <c>after</c>.</param>
/// <param name="Time">Start of the aggregation period (the envelope's <c>time</c>).</param>
/// <param name="ReceivedAt">When devhost received it.</param>
/// <param name="Name">The metric name (<see cref="SensorPipeline.Core.Telemetry.MetricNames"/>).</param>
/// <param name="Sum">valueSum: the sum of the values tracked in the period.</param>
/// <param name="Count">valueCount: how many values were tracked.</param>
/// <param name="Min">valueMin.</param>
/// <param name="Max">valueMax.</param>
/// <param name="IntervalMs">Length of the aggregation period (<c>_MS.AggregationIntervalMs</c>), 0 when absent.</param>
/// <param name="RoleInstance">The sending process (<c>ai.cloud.roleInstance</c>).</param>
/// <param name="Dimensions">customDimensions (without the SDK's <c>_MS.</c> properties).</param>
public sealed record MetricPoint(
    long Sequence,
    DateTimeOffset Time,
    DateTimeOffset ReceivedAt,
    string Name,
    double Sum,
    long Count,
    double Min,
    double Max,
    double IntervalMs,
    string? RoleInstance,
    IReadOnlyDictionary<string, string> Dimensions)
{
    /// <summary>A dimension's value, or null.</summary>
    public string? Dimension(string name) => Dimensions.TryGetValue(name, out var value) ? value : null;
}
