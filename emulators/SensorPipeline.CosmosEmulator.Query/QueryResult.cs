namespace SensorPipeline.CosmosEmulator.Query;

/// <summary>The result of <see cref="SqlQuery.Execute"/>.</summary>
/// <param name="Items">Each result value as UTF-8 JSON, in result order.</param>
/// <param name="DocumentsScanned">How many documents the query read: all of them, except when a TOP or LIMIT without
/// ORDER BY was satisfied early. The basis of a request charge.</param>
public sealed record QueryResult(IReadOnlyList<byte[]> Items, long DocumentsScanned)
{
    /// <summary>The bytes of the documents scanned.</summary>
    public long BytesScanned { get; init; }

    /// <summary>How many of the scanned documents passed the WHERE clause (all of them without one): what a query
    /// loads when an index serves its filter.</summary>
    public long DocumentsMatched { get; init; }

    /// <summary>The bytes of the documents that passed the WHERE clause.</summary>
    public long BytesMatched { get; init; }
}
