using SensorPipeline.CosmosEmulator.Security;
using SensorPipeline.CosmosEmulator.Documents;
using SensorPipeline.CosmosEmulator.Throttling;

namespace SensorPipeline.CosmosEmulator.Http;

/// <summary>
/// The gateway's one entry point: checks the master-key signature and its date, applies an injected fault, then routes
/// by the address (<c>/</c>, <c>/dbs[/db[/colls[/coll[/docs[/id]|/pkranges]]]]</c>, <c>/offers</c>) and the method and
/// headers (query, upsert, batch) to the endpoint that owns the resource. Store refusals become the service's error bodies.
/// </summary>
internal sealed class GatewayDispatcher(EmulatorStore store, MasterKeyAuthorizer authorizer, FaultInjector faults, AdminEndpoint admin,
    DatabasesEndpoint databases, ContainersEndpoint containers, PartitionKeyRangesEndpoint partitionKeyRanges, DocumentsEndpoint documents,
    ILogger<GatewayDispatcher> logger)
{
    public async Task DispatchAsync(HttpContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        var segments = (context.Request.Path.Value ?? "").Split('/', StringSplitOptions.RemoveEmptyEntries);
        if (segments is ["_emulator", ..])
        {
            await admin.AdminAsync(context, segments);
            return;
        }

        if (!Authorized(context.Request, segments))
        {
            await GatewayResponse.ErrorAsync(context, 401, "Unauthorized",
                "The input authorization token can't serve the request. The wrong key is being used or the expected payload is not built as per the protocol.");
            return;
        }

        // A good signature is still refused outside its date's window, as the service refuses it: 403.
        if (authorizer.DateRefusal(context.Request.Headers[CosmosHeaders.XDate].ToString(), context.Request.Headers.Date.ToString()) is { } expired)
        {
            await GatewayResponse.ErrorAsync(context, 403, "Forbidden", expired);
            return;
        }

        var method = context.Request.Method;
        var isWrite = !HttpMethods.IsGet(method) && !HttpMethods.IsHead(method) && !GatewayRequest.IsQuery(context.Request);
        if (faults.Match(isWrite, segments is ["dbs", _, "colls", var coll, ..] ? coll : null) is { } fault)
        {
            await GatewayResponse.ErrorAsync(context, fault.Status, GatewayFaults.FaultCode(fault.Status), $"Injected fault: {fault.Status}.", fault.SubStatus ?? 0,
                fault.Status == 429 ? fault.RetryAfterMs ?? 100 : 0);
            return;
        }

        try
        {
            await RouteAsync(context, segments);
        }
        catch (StoreException e)
        {
            await GatewayResponse.ErrorAsync(context, e);
        }
        catch (JsonException e)
        {
            await GatewayResponse.ErrorAsync(context, 400, "BadRequest", "The request body is not valid JSON: " + e.Message);
        }
        catch (IOException e) when (!context.RequestAborted.IsCancellationRequested)
        {
            // The log refused the write (a failed disk write earlier): nothing was acknowledged.
            GatewayLog.WriteFailed(logger, e);
            await GatewayResponse.ErrorAsync(context, 503, "ServiceUnavailable", "The store cannot write: " + e.Message);
        }
    }

    private Task RouteAsync(HttpContext context, string[] segments)
    {
        var method = context.Request.Method;
        switch (segments)
        {
            case []:
                return HttpMethods.IsGet(method) ? AccountEndpoint.AccountAsync(context) : GatewayRequest.NotSupported(context);
            case ["dbs"]:
                return databases.DatabasesAsync(context);
            case ["dbs", var db]:
                return databases.DatabaseAsync(context, db);
            case ["dbs", var db, "colls"]:
                return containers.ContainersAsync(context, db);
            case ["dbs", var db, "colls", var coll]:
                return containers.ContainerAsync(context, db, coll);
            case ["dbs", var db, "colls", var coll, "pkranges"]:
                return partitionKeyRanges.PartitionKeyRangesAsync(context, db, coll);
            case ["dbs", var db, "colls", var coll, "docs"]:
                return documents.DocumentsFeedAsync(context, db, coll);
            case ["dbs", var db, "colls", var coll, "docs", var id]:
                return documents.DocumentAsync(context, db, coll, id);
            case ["offers", ..]:
                return AccountEndpoint.OffersAsync(context);
            default:
                return GatewayRequest.NotSupported(context);
        }
    }

    private bool Authorized(HttpRequest request, string[] segments)
    {
        // The signed link: for a feed (odd segment count) its owner's address, else the resource's own address; the
        // resource type is the last type segment. The SDKs sign some requests with the resource's _rid instead: that
        // form is accepted only as the addressed resource's actual _rid, so a signature never covers a bare name.
        string type, nameLink;
        if (segments.Length == 0)
        {
            (type, nameLink) = ("", "");
        }
        else if (segments.Length % 2 == 1)
        {
            type = segments[^1];
            nameLink = string.Join('/', segments, 0, segments.Length - 1);
        }
        else
        {
            type = segments[^2];
            nameLink = string.Join('/', segments);
        }

        var headers = request.Headers;
        var authorization = headers.Authorization.ToString();
        var (xDate, date) = (headers[CosmosHeaders.XDate].ToString(), headers.Date.ToString());
        return RidLink(segments) is { } ridLink
            ? authorizer.IsAuthorized(request.Method, type, [nameLink, ridLink], authorization, xDate, date)
            : authorizer.IsAuthorized(request.Method, type, [nameLink], authorization, xDate, date);
    }

    /// <summary>The lower-cased <c>_rid</c> of the signed resource (a feed's owner, else the resource) when it is a
    /// database or a container that exists; null otherwise (documents are addressed by id in this emulator).</summary>
    private string? RidLink(string[] segments)
    {
        var signed = segments.Length % 2 == 1 ? segments.Length - 1 : segments.Length;
        if (signed < 2 || segments[0] != "dbs" || store.Catalog.FindDatabase(segments[1]) is not { } database)
        {
            return null;
        }

        if (signed == 2)
        {
            return database.Rid.ToLowerInvariant();
        }

        return signed == 4 && segments[2] == "colls" && store.Catalog.FindContainer(database, segments[3]) is { } container
            ? container.Rid.ToLowerInvariant()
            : null;
    }
}
