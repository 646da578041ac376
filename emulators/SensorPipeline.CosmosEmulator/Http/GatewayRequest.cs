using SensorPipeline.CosmosEmulator.Documents;

namespace SensorPipeline.CosmosEmulator.Http;

/// <summary>What every endpoint reads from a request the same way: its body, the query and boolean headers, the
/// partition key, <c>If-Match</c>, the continuation, the addressed container; and the answer to a request no endpoint
/// serves.</summary>
internal static class GatewayRequest
{
    public static bool IsQuery(HttpRequest request) =>
        HttpMethods.IsPost(request.Method)
        && (IsTrue(request.Headers[CosmosHeaders.IsQuery]) || IsTrue(request.Headers[CosmosHeaders.IsQueryPlanRequest])
            || (request.ContentType?.StartsWith(CosmosHeaders.QueryContentType, StringComparison.OrdinalIgnoreCase) ?? false));

    public static bool IsTrue(Microsoft.Extensions.Primitives.StringValues value) => string.Equals(value.ToString(), "true", StringComparison.OrdinalIgnoreCase);

    public static Task NotSupported(HttpContext context) =>
        GatewayResponse.ErrorAsync(context, 400, "BadRequest",
            $"{context.Request.Method} {context.Request.Path} is not supported by this emulator (see its README for the protocol it covers).");

    /// <summary>The whole request body (documents are at most 2 MB; Kestrel caps the body size).</summary>
    public static async Task<ReadOnlyMemory<byte>> ReadBodyAsync(HttpContext context)
    {
        var reader = context.Request.BodyReader;
        while (true)
        {
            var result = await reader.ReadAsync(context.RequestAborted);
            if (result.IsCompleted)
            {
                var body = System.Buffers.BuffersExtensions.ToArray(result.Buffer);
                reader.AdvanceTo(result.Buffer.End);
                return body;
            }

            reader.AdvanceTo(result.Buffer.Start, result.Buffer.End);
        }
    }

    /// <summary>The database and container an address names, or 404 naming the one missing.</summary>
    public static (DatabaseState Database, ContainerState Container) Find(EmulatorStore store, string db, string coll)
    {
        var database = store.Catalog.FindDatabase(db) ?? throw StoreException.NotFound($"Database '{db}'.");
        var container = store.Catalog.FindContainer(database, coll) ?? throw StoreException.NotFound($"Container '{db}/{coll}'.");
        return (database, container);
    }

    /// <summary>The canonical partition key from <c>x-ms-documentdb-partitionkey</c>, or null when absent.</summary>
    public static string? HeaderKey(HttpRequest request)
    {
        var header = request.Headers[CosmosHeaders.PartitionKey].ToString();
        if (header.Length == 0)
        {
            return null;
        }

        return PartitionKeys.FromHeader(header)
            ?? throw new StoreException(400, "BadRequest", $"The partition key header '{header}' is not a JSON array of values.");
    }

    public static string RequiredKey(ContainerState container) =>
        throw new StoreException(400, "BadRequest", $"This operation on container '{container.Id}' needs the partition key ({CosmosHeaders.PartitionKey}).", 1001);

    public static string? IfMatch(HttpRequest request)
    {
        var value = request.Headers.IfMatch.ToString();
        return value.Length == 0 || value == "*" ? null : value;
    }

    public static string? Continuation(HttpRequest request)
    {
        var value = request.Headers[CosmosHeaders.Continuation].ToString();
        return value.Length == 0 ? null : value;
    }
}
