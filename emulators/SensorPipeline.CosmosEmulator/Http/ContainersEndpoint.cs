using SensorPipeline.CosmosEmulator.Documents;

namespace SensorPipeline.CosmosEmulator.Http;

/// <summary><c>/dbs/{db}/colls</c> and <c>/dbs/{db}/colls/{coll}</c>: list, query, create, read, replace and delete
/// containers.</summary>
internal sealed class ContainersEndpoint(EmulatorStore store, QueriesEndpoint queries)
{
    public async Task ContainersAsync(HttpContext context, string db)
    {
        var database = store.Catalog.FindDatabase(db) ?? throw StoreException.NotFound($"Database '{db}'.");
        var method = context.Request.Method;
        if (HttpMethods.IsGet(method))
        {
            await GatewayResponse.FeedAsync(context, database.Rid, "DocumentCollections", [.. store.Catalog.ContainersOf(database).Select(c => c.Resource)], 1, null);
        }
        else if (HttpMethods.IsPost(method) && GatewayRequest.IsQuery(context.Request))
        {
            await queries.QueryResourcesAsync(context, database.Rid, "DocumentCollections", [.. store.Catalog.ContainersOf(database).Select(c => c.Resource)]);
        }
        else if (HttpMethods.IsPost(method))
        {
            using var body = JsonDocument.Parse(await GatewayRequest.ReadBodyAsync(context));
            var container = await store.Metadata.CreateContainerAsync(database, body.RootElement);
            GatewayResponse.Written();
            await GatewayResponse.JsonAsync(context, 201, container.Resource, 1, container.ETag);
        }
        else
        {
            await GatewayRequest.NotSupported(context);
        }
    }

    public async Task ContainerAsync(HttpContext context, string db, string coll)
    {
        var (database, container) = GatewayRequest.Find(store, db, coll);
        var method = context.Request.Method;
        if (HttpMethods.IsGet(method))
        {
            UsageHeaders.AddResourceUsage(context, container);
            await GatewayResponse.JsonAsync(context, 200, container.Resource, 1, container.ETag);
        }
        else if (HttpMethods.IsPut(method))
        {
            using var body = JsonDocument.Parse(await GatewayRequest.ReadBodyAsync(context));
            await store.Metadata.ReplaceContainerAsync(database, container, body.RootElement);
            GatewayResponse.Written();
            await GatewayResponse.JsonAsync(context, 200, container.Resource, 1, container.ETag);
        }
        else if (HttpMethods.IsDelete(method))
        {
            await store.Metadata.DeleteContainerAsync(database, container);
            GatewayResponse.Written();
            await GatewayResponse.EmptyAsync(context, 204, 1);
        }
        else
        {
            await GatewayRequest.NotSupported(context);
        }
    }
}
