namespace SensorPipeline.EventHubs;

/// <summary>One event hub of the namespace as configured.</summary>
/// <param name="Name">The hub name (matched case-insensitively, as Event Hubs does).</param>
/// <param name="PartitionCount">Partitions "0" … PartitionCount-1.</param>
/// <param name="ConsumerGroups">Consumer group names: <c>$Default</c> first, then the configured ones.</param>
public sealed record EventHubDescription(string Name, int PartitionCount, IReadOnlyList<string> ConsumerGroups)
{
    /// <summary>The partition ids, "0" … PartitionCount-1.</summary>
    public IReadOnlyList<string> PartitionIds { get; } = Enumerable.Range(0, PartitionCount).Select(i => i.ToString(System.Globalization.CultureInfo.InvariantCulture)).ToArray();
}
