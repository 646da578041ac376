using SensorPipeline.CosmosEmulator.Hosting;
using SensorPipeline.CosmosEmulator.Queries;
using SensorPipeline.CosmosEmulator.Security;
using SensorPipeline.CosmosEmulator.Documents;
using SensorPipeline.CosmosEmulator.Throttling;
using SensorPipeline.Emulators.Common;

namespace SensorPipeline.CosmosEmulator.Http;

/// <summary>
/// The gateway's one entry point: checks the master-key signature and its date, applies an injected fault, then routes
/// by the address (<c>/</c>, <c>/dbs[/db[/colls[/coll[/docs[/id]|/pkranges]]]]</c>, <c>/offers</c>) and the method and
/// headers (query, upsert, batch). Store refusals become the service's error bodies.
/// </summary>
internal sealed partial class GatewayDispatcher(EmulatorStore store, MasterKeyAuthorizer authorizer, FaultInjector faults, QueryRunner queries, LogStorage storage,
    CosmosEmulatorOptions options, ILogger<GatewayDispatcher> logger)
{
    public async Task DispatchAsync(HttpContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        var segments = (context.Request.Path.Value ?? "").Split('/', StringSplitOptions.RemoveEmptyEntries);
        if (segments is ["_emulator", ..])
        {
            await AdminAsync(context, segments);
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
        var isWrite = !HttpMethods.IsGet(method) && !HttpMethods.IsHead(method) && !IsQuery(context.Request);
        if (faults.Match(isWrite, segments is ["dbs", _, "colls", var coll, ..] ? coll : null) is { } fault)
        {
            await GatewayResponse.ErrorAsync(context, fault.Status, FaultCode(fault.Status), $"Injected fault: {fault.Status}.", fault.SubStatus ?? 0,
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
                return HttpMethods.IsGet(method) ? AccountAsync(context) : NotSupported(context);
            case ["dbs"]:
                return DatabasesAsync(context);
            case ["dbs", var db]:
                return DatabaseAsync(context, db);
            case ["dbs", var db, "colls"]:
                return ContainersAsync(context, db);
            case ["dbs", var db, "colls", var coll]:
                return ContainerAsync(context, db, coll);
            case ["dbs", var db, "colls", var coll, "pkranges"]:
                return PartitionKeyRangesAsync(context, db, coll);
            case ["dbs", var db, "colls", var coll, "docs"]:
                return DocumentsFeedAsync(context, db, coll);
            case ["dbs", var db, "colls", var coll, "docs", var id]:
                return DocumentAsync(context, db, coll, id);
            case ["offers", ..]:
                return OffersAsync(context);
            default:
                return NotSupported(context);
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
        if (signed < 2 || segments[0] != "dbs" || store.FindDatabase(segments[1]) is not { } database)
        {
            return null;
        }

        if (signed == 2)
        {
            return database.Rid.ToLowerInvariant();
        }

        return signed == 4 && segments[2] == "colls" && store.FindContainer(database, segments[3]) is { } container
            ? container.Rid.ToLowerInvariant()
            : null;
    }

    private static bool IsQuery(HttpRequest request) =>
        HttpMethods.IsPost(request.Method)
        && (IsTrue(request.Headers[CosmosHeaders.IsQuery]) || IsTrue(request.Headers[CosmosHeaders.IsQueryPlanRequest])
            || (request.ContentType?.StartsWith(CosmosHeaders.QueryContentType, StringComparison.OrdinalIgnoreCase) ?? false));

    private static bool IsTrue(Microsoft.Extensions.Primitives.StringValues value) => string.Equals(value.ToString(), "true", StringComparison.OrdinalIgnoreCase);

    private static string FaultCode(int status) => status switch
    {
        400 => "BadRequest",
        403 => "Forbidden",
        413 => "RequestEntityTooLarge",
        408 => "RequestTimeout",
        410 => "Gone",
        429 => "TooManyRequests",
        449 => "RetryWith",
        500 => "InternalServerError",
        _ => "ServiceUnavailable",
    };

    /// <summary>A per-document fault for this document write (<see cref="FaultRequest.DocumentContains"/>), as a store error.</summary>
    private (StoreException Error, int RetryAfterMs)? DocumentFault(ReadOnlySpan<byte> document) =>
        faults.MatchDocument(document) is { } fault
            ? (new StoreException(fault.Status, FaultCode(fault.Status), $"Injected fault: {fault.Status} for this document.", fault.SubStatus ?? 0),
                fault.Status == 429 ? fault.RetryAfterMs ?? 100 : 0)
            : null;

    private static Task NotSupported(HttpContext context) =>
        GatewayResponse.ErrorAsync(context, 400, "BadRequest",
            $"{context.Request.Method} {context.Request.Path} is not supported by this emulator (see its README for the protocol it covers).");

    /// <summary>The whole request body (documents are at most 2 MB; Kestrel caps the body size).</summary>
    private static async Task<ReadOnlyMemory<byte>> ReadBodyAsync(HttpContext context)
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
}
