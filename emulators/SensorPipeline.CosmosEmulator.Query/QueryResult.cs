namespace SensorPipeline.CosmosEmulator.Query;

/// <summary>The result of <see cref="SqlQuery.Execute"/>.</summary>
/// <param name="Items">Each result value as UTF-8 JSON, in result order.</param>
/// <param name="DocumentsScanned">How many documents the query read: all of them, except when a TOP or LIMIT without
/// ORDER BY was satisfied early. The basis of a request charge.</param>
public sealed record QueryResult(IReadOnlyList<byte[]> Items, long DocumentsScanned);
