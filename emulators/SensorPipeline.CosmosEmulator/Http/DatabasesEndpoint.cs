using SensorPipeline.CosmosEmulator.Documents;

namespace SensorPipeline.CosmosEmulator.Http;

/// <summary><c>/dbs</c> and <c>/dbs/{db}</c>: list, query, create, read and delete databases.</summary>
internal sealed class DatabasesEndpoint(EmulatorStore store, QueriesEndpoint queries)
{
    public async Task DatabasesAsync(HttpContext context)
    {
        var method = context.Request.Method;
        if (HttpMethods.IsGet(method))
        {
            await GatewayResponse.FeedAsync(context, "", "Databases", [.. store.Catalog.Databases.Select(d => d.Resource)], 1, null);
        }
        else if (HttpMethods.IsPost(method) && GatewayRequest.IsQuery(context.Request))
        {
            await queries.QueryResourcesAsync(context, "", "Databases", [.. store.Catalog.Databases.Select(d => d.Resource)]);
        }
        else if (HttpMethods.IsPost(method))
        {
            using var body = JsonDocument.Parse(await GatewayRequest.ReadBodyAsync(context));
            var database = await store.Metadata.CreateDatabaseAsync(body.RootElement);
            GatewayResponse.Written();
            await GatewayResponse.JsonAsync(context, 201, database.Resource, 1, database.ETag);
        }
        else
        {
            await GatewayRequest.NotSupported(context);
        }
    }

    public async Task DatabaseAsync(HttpContext context, string db)
    {
        var database = store.Catalog.FindDatabase(db) ?? throw StoreException.NotFound($"Database '{db}'.");
        if (HttpMethods.IsGet(context.Request.Method))
        {
            await GatewayResponse.JsonAsync(context, 200, database.Resource, 1, database.ETag);
        }
        else if (HttpMethods.IsDelete(context.Request.Method))
        {
            await store.Metadata.DeleteDatabaseAsync(database);
            GatewayResponse.Written();
            await GatewayResponse.EmptyAsync(context, 204, 1);
        }
        else
        {
            await GatewayRequest.NotSupported(context);
        }
    }
}
