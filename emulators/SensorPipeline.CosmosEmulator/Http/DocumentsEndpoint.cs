using SensorPipeline.CosmosEmulator.Queries;
using SensorPipeline.CosmosEmulator.Documents;
using SensorPipeline.CosmosEmulator.Charging;
using SensorPipeline.CosmosEmulator.Throttling;

namespace SensorPipeline.CosmosEmulator.Http;

/// <summary><c>/docs</c> and <c>/docs/{id}</c>: point writes, reads, patches and deletes, each admitted by the
/// container's budget and charged to it; a query, a query plan or a batch posted to <c>/docs</c> goes to its endpoint.</summary>
internal sealed class DocumentsEndpoint(EmulatorStore store, FaultInjector faults, QueriesEndpoint queries, BatchEndpoint batch)
{
    /// <summary><c>/docs</c>: POST creates (or upserts, queries, runs a batch); GET reads the feed.</summary>
    public async Task DocumentsFeedAsync(HttpContext context, string db, string coll)
    {
        var (_, container) = GatewayRequest.Find(store, db, coll);
        var request = context.Request;
        if (!container.Budget.TryAdmit(out var retryAfterMs))
        {
            await Throttled(context, retryAfterMs);
            return;
        }

        if (HttpMethods.IsPost(request.Method) && GatewayRequest.IsTrue(request.Headers[CosmosHeaders.IsQueryPlanRequest]))
        {
            await queries.QueryPlanAsync(context, container);
        }
        else if (HttpMethods.IsPost(request.Method) && GatewayRequest.IsQuery(request))
        {
            await queries.QueryDocumentsAsync(context, container);
        }
        else if (HttpMethods.IsPost(request.Method) && GatewayRequest.IsTrue(request.Headers[CosmosHeaders.IsBatchRequest]))
        {
            await batch.BatchAsync(context, container);
        }
        else if (HttpMethods.IsPost(request.Method))
        {
            var kind = GatewayRequest.IsTrue(request.Headers[CosmosHeaders.IsUpsert]) ? WriteKind.Upsert : WriteKind.Create;
            var body = await GatewayRequest.ReadBodyAsync(context);
            if (GatewayFaults.DocumentFault(faults, body.Span) is { } fault)
            {
                await GatewayResponse.ErrorAsync(context, fault.Error, fault.RetryAfterMs);
                return;
            }

            var (status, document, previous) = await Charged(container, store.Documents.WriteAsync(container, kind, GatewayRequest.HeaderKey(request), null, body, GatewayRequest.IfMatch(request)));
            await WrittenAsync(context, container, status, document, previous);
        }
        else if (HttpMethods.IsGet(request.Method))
        {
            await queries.ReadFeedAsync(context, container);
        }
        else
        {
            await GatewayRequest.NotSupported(context);
        }
    }

    /// <summary><c>/docs/{id}</c>: read, replace, patch, delete.</summary>
    public async Task DocumentAsync(HttpContext context, string db, string coll, string id)
    {
        var (_, container) = GatewayRequest.Find(store, db, coll);
        if (!container.Budget.TryAdmit(out var retryAfterMs))
        {
            await Throttled(context, retryAfterMs);
            return;
        }

        var request = context.Request;
        var method = request.Method;
        if (HttpMethods.IsPut(method))
        {
            var body = await GatewayRequest.ReadBodyAsync(context);
            if (GatewayFaults.DocumentFault(faults, body.Span) is { } fault)
            {
                await GatewayResponse.ErrorAsync(context, fault.Error, fault.RetryAfterMs);
                return;
            }

            var (status, document, previous) = await Charged(container, store.Documents.WriteAsync(container, WriteKind.Replace, GatewayRequest.HeaderKey(request), id, body, GatewayRequest.IfMatch(request)));
            await WrittenAsync(context, container, status, document, previous);
            return;
        }

        var key = GatewayRequest.HeaderKey(request) ?? GatewayRequest.RequiredKey(container);
        if (HttpMethods.IsGet(method))
        {
            var document = store.Documents.Read(container, key, id);
            var charge = RequestCharge.PointRead(document.Json.Length);
            container.Charge(ChargedOperation.Read, charge);
            if (request.Headers.IfNoneMatch.ToString() == document.ETag)
            {
                await GatewayResponse.EmptyAsync(context, 304, charge, document.ETag);
                return;
            }

            await GatewayResponse.JsonAsync(context, 200, document.Json, charge, document.ETag);
        }
        else if (HttpMethods.IsDelete(method))
        {
            var deleted = await Charged(container, store.Documents.DeleteAsync(container, key, id, GatewayRequest.IfMatch(request)));
            var charge = container.DeleteCharge(deleted);
            container.Charge(ChargedOperation.Delete, charge);
            GatewayResponse.Written();
            await GatewayResponse.EmptyAsync(context, 204, charge);
        }
        else if (HttpMethods.IsPatch(method))
        {
            var (operations, condition) = PatchApplier.ParseRequest(await GatewayRequest.ReadBodyAsync(context));
            var predicate = condition is null ? null : QueryRunner.Predicate(condition);
            var (document, previous) = await Charged(container, store.Documents.PatchAsync(container, key, id, operations, predicate, GatewayRequest.IfMatch(request)));
            await WrittenAsync(context, container, 200, document, previous, patch: true);
        }
        else
        {
            await GatewayRequest.NotSupported(context);
        }
    }

    private static Task WrittenAsync(HttpContext context, ContainerState container, int status, StoredDocument document, StoredDocument? previous,
        bool patch = false)
    {
        var (operation, charge) = container.WriteCharge(document, previous, patch);
        container.Charge(operation, charge);
        GatewayResponse.Written();

        // The SDKs can ask for no body on writes (Prefer: return=minimal / EnableContentResponseOnWrite = false).
        if (context.Request.Headers["Prefer"].ToString().Contains("return=minimal", StringComparison.OrdinalIgnoreCase))
        {
            return GatewayResponse.EmptyAsync(context, status, charge, document.ETag);
        }

        return GatewayResponse.JsonAsync(context, status, document.Json, charge, document.ETag);
    }

    /// <summary>Awaits a store call; a refusal that cost something (a 412 or 409 read the document) is charged before
    /// it becomes the error answer, which carries the charge too.</summary>
    private static async Task<T> Charged<T>(ContainerState container, Task<T> call)
    {
        try
        {
            return await call;
        }
        catch (StoreException e) when (e.RequestCharge > 0)
        {
            container.Charge(ChargedOperation.Refused, e.RequestCharge);
            throw;
        }
    }

    private static Task Throttled(HttpContext context, int retryAfterMs) =>
        GatewayResponse.ErrorAsync(context, 429, "TooManyRequests",
            "Request rate is large. More Request Units may be needed, so no changes were made. Please retry this request later.", 3200, retryAfterMs);
}
