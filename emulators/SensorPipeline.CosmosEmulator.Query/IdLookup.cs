namespace SensorPipeline.CosmosEmulator.Query;

/// <summary>
/// What an index on <c>id</c> can do for a query: every document its WHERE clause can match has the id of one of
/// <see cref="Keys"/> (and, where a key names one, that partition key). A store that keeps documents by id loads only
/// those; the query then evaluates its whole WHERE clause on them, so the answer is the same as a full scan's as long
/// as the store passes them in the order its scan would.
/// </summary>
/// <param name="Keys">The ids the clause pins, each with its branch's partition key; duplicates possible, order none.
/// Empty when no document can match (<c>c.id = 5</c>: ids are strings).</param>
public sealed record IdLookup(IReadOnlyList<IdKey> Keys);

/// <summary>One id a WHERE clause pins.</summary>
/// <param name="Id">The id.</param>
/// <param name="PartitionKey">The values the same conjunction pins the container's partition key paths to, as the JSON
/// array the SDKs send in <c>x-ms-documentdb-partitionkey</c> (<c>["dev-1"]</c>); null when it does not pin every path
/// to a string, boolean or null (the document may then be in any partition).</param>
public sealed record IdKey(string Id, string? PartitionKey);
