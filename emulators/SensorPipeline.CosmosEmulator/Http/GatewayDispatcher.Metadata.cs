using System.Buffers;
using SensorPipeline.CosmosEmulator.Documents;

namespace SensorPipeline.CosmosEmulator.Http;

internal sealed partial class GatewayDispatcher
{
    /// <summary>The account: its one region is this endpoint (for reads and writes), session consistency, and the
    /// query engine limits the SDKs read before planning queries.</summary>
    private static Task AccountAsync(HttpContext context)
    {
        var endpoint = $"https://{context.Request.Host}/";
        var buffer = new ArrayBufferWriter<byte>(2048);
        using (var writer = new Utf8JsonWriter(buffer))
        {
            writer.WriteStartObject();
            writer.WriteString("_self", "");
            writer.WriteString("id", "localhost");
            writer.WriteString("_rid", "localhost");
            writer.WriteString("media", "//media/");
            writer.WriteString("addresses", "//addresses/");
            writer.WriteString("_dbs", "//dbs/");
            foreach (var name in (ReadOnlySpan<string>)["writableLocations", "readableLocations"])
            {
                writer.WriteStartArray(name);
                writer.WriteStartObject();
                writer.WriteString("name", "South Central US");
                writer.WriteString("databaseAccountEndpoint", endpoint);
                writer.WriteEndObject();
                writer.WriteEndArray();
            }

            writer.WriteBoolean("enableMultipleWriteLocations", false);
            writer.WriteStartObject("userReplicationPolicy");
            writer.WriteBoolean("asyncReplication", false);
            writer.WriteNumber("minReplicaSetSize", 1);
            writer.WriteNumber("maxReplicasetSize", 4);
            writer.WriteEndObject();
            writer.WriteStartObject("userConsistencyPolicy");
            writer.WriteString("defaultConsistencyLevel", "Session");
            writer.WriteEndObject();
            writer.WriteStartObject("systemReplicationPolicy");
            writer.WriteNumber("minReplicaSetSize", 1);
            writer.WriteNumber("maxReplicasetSize", 4);
            writer.WriteEndObject();
            writer.WriteStartObject("readPolicy");
            writer.WriteNumber("primaryReadCoefficient", 1);
            writer.WriteNumber("secondaryReadCoefficient", 1);
            writer.WriteEndObject();
            writer.WriteString("queryEngineConfiguration",
                """{"maxSqlQueryInputLength":262144,"maxJoinsPerSqlQuery":5,"maxLogicalAndPerSqlQuery":500,"maxLogicalOrPerSqlQuery":500,"maxUdfRefPerSqlQuery":10,"maxInExpressionItemsCount":16000,"queryMaxInMemorySortDocumentCount":500,"maxQueryRequestTimeoutFraction":0.9,"sqlAllowNonFiniteNumbers":false,"sqlAllowAggregateFunctions":true,"sqlAllowSubQuery":true,"sqlAllowScalarSubQuery":true,"allowNewKeywords":true,"sqlAllowLike":true,"sqlAllowGroupByClause":false,"maxSpatialQueryCells":12,"spatialMaxGeometryPointCount":256,"sqlDisableOptimizationFlags":0,"sqlAllowTop":true,"enableSpatialIndexing":true}""");
            writer.WriteEndObject();
        }

        return GatewayResponse.JsonAsync(context, 200, buffer.WrittenMemory, 0);
    }

    private async Task DatabasesAsync(HttpContext context)
    {
        var method = context.Request.Method;
        if (HttpMethods.IsGet(method))
        {
            await GatewayResponse.FeedAsync(context, "", "Databases", [.. store.Databases.Select(d => d.Resource)], 1, null);
        }
        else if (HttpMethods.IsPost(method) && IsQuery(context.Request))
        {
            await QueryResourcesAsync(context, "", "Databases", [.. store.Databases.Select(d => d.Resource)]);
        }
        else if (HttpMethods.IsPost(method))
        {
            using var body = JsonDocument.Parse(await ReadBodyAsync(context));
            var database = await store.CreateDatabaseAsync(body.RootElement);
            GatewayResponse.Written();
            await GatewayResponse.JsonAsync(context, 201, database.Resource, 1, database.ETag);
        }
        else
        {
            await NotSupported(context);
        }
    }

    private async Task DatabaseAsync(HttpContext context, string db)
    {
        var database = store.FindDatabase(db) ?? throw StoreException.NotFound($"Database '{db}'.");
        if (HttpMethods.IsGet(context.Request.Method))
        {
            await GatewayResponse.JsonAsync(context, 200, database.Resource, 1, database.ETag);
        }
        else if (HttpMethods.IsDelete(context.Request.Method))
        {
            await store.DeleteDatabaseAsync(database);
            GatewayResponse.Written();
            await GatewayResponse.EmptyAsync(context, 204, 1);
        }
        else
        {
            await NotSupported(context);
        }
    }

    private async Task ContainersAsync(HttpContext context, string db)
    {
        var database = store.FindDatabase(db) ?? throw StoreException.NotFound($"Database '{db}'.");
        var method = context.Request.Method;
        if (HttpMethods.IsGet(method))
        {
            await GatewayResponse.FeedAsync(context, database.Rid, "DocumentCollections", [.. store.ContainersOf(database).Select(c => c.Resource)], 1, null);
        }
        else if (HttpMethods.IsPost(method) && IsQuery(context.Request))
        {
            await QueryResourcesAsync(context, database.Rid, "DocumentCollections", [.. store.ContainersOf(database).Select(c => c.Resource)]);
        }
        else if (HttpMethods.IsPost(method))
        {
            using var body = JsonDocument.Parse(await ReadBodyAsync(context));
            var container = await store.CreateContainerAsync(database, body.RootElement);
            GatewayResponse.Written();
            await GatewayResponse.JsonAsync(context, 201, container.Resource, 1, container.ETag);
        }
        else
        {
            await NotSupported(context);
        }
    }

    private async Task ContainerAsync(HttpContext context, string db, string coll)
    {
        var (database, container) = Find(db, coll);
        var method = context.Request.Method;
        if (HttpMethods.IsGet(method))
        {
            await GatewayResponse.JsonAsync(context, 200, container.Resource, 1, container.ETag);
        }
        else if (HttpMethods.IsPut(method))
        {
            using var body = JsonDocument.Parse(await ReadBodyAsync(context));
            await store.ReplaceContainerAsync(database, container, body.RootElement);
            GatewayResponse.Written();
            await GatewayResponse.JsonAsync(context, 200, container.Resource, 1, container.ETag);
        }
        else if (HttpMethods.IsDelete(method))
        {
            await store.DeleteContainerAsync(database, container);
            GatewayResponse.Written();
            await GatewayResponse.EmptyAsync(context, 204, 1);
        }
        else
        {
            await NotSupported(context);
        }
    }

    /// <summary>Offers: none (throughput is the emulator's configured budget, not a resource); an empty feed lets a
    /// client that reads them see "no offer" rather than an error.</summary>
    private static Task OffersAsync(HttpContext context) =>
        HttpMethods.IsGet(context.Request.Method) || IsQuery(context.Request)
            ? GatewayResponse.FeedAsync(context, "", "Offers", [], 1, null)
            : NotSupported(context);

    private (DatabaseState Database, ContainerState Container) Find(string db, string coll)
    {
        var database = store.FindDatabase(db) ?? throw StoreException.NotFound($"Database '{db}'.");
        var container = store.FindContainer(database, coll) ?? throw StoreException.NotFound($"Container '{db}/{coll}'.");
        return (database, container);
    }
}
