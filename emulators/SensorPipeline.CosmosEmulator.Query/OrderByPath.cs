namespace SensorPipeline.CosmosEmulator.Query;

/// <summary>One ORDER BY item as a document path (property names; array positions as <c>[]</c>, as indexing policies
/// write them) and its direction.</summary>
public sealed record OrderByPath(IReadOnlyList<string> Path, bool Descending);
