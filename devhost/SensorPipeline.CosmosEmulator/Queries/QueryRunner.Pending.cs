using SensorPipeline.CosmosEmulator.Store;

namespace SensorPipeline.CosmosEmulator.Queries;

/// <summary>Until the query engine project is merged: every query is a 400 naming why.</summary>
internal sealed class QueryRunner(TimeProvider time)
{
    public TimeProvider Time { get; } = time;

#pragma warning disable CA1822 // the shape of the real runner
    public Request Parse(ReadOnlyMemory<byte> body) => throw new StoreException(400, "BadRequest", $"Queries need the query engine ({body.Length} bytes).");

    public Func<ReadOnlyMemory<byte>, bool> Predicate(string condition) => throw new StoreException(400, "BadRequest", "Filter predicates need the query engine: " + condition);

    public Page Execute(Request request, Func<IReadOnlyList<ReadOnlyMemory<byte>>> documents, string? continuation, int pageSize, long maxPageBytes) =>
        throw new StoreException(400, "BadRequest", "Queries need the query engine.");

    internal sealed class Request : IDisposable
    {
        public PendingQuery Query { get; } = new();

        public void Dispose()
        {
        }
    }

    internal sealed class PendingQuery
    {
#pragma warning disable CA1822
        public void WriteQueryPlan(System.Text.Json.Utf8JsonWriter writer) => throw new StoreException(400, "BadRequest", "Query plans need the query engine.");
    }

#pragma warning restore CA1822
    public sealed record Page(IReadOnlyList<byte[]> Items, long DocumentsScanned, long Bytes, string? Continuation);
}
