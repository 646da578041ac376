using System.Buffers;
using System.Diagnostics;
using System.Globalization;
using SensorPipeline.CosmosEmulator.Documents;
using SensorPipeline.CosmosEmulator.Hosting;
using SensorPipeline.CosmosEmulator.Charging;
using SensorPipeline.CosmosEmulator.Queries;

namespace SensorPipeline.CosmosEmulator.Http;

/// <summary>Queries and feeds: the query plan, a query over a container's documents (one partition, one range or all
/// of them, one page per request), a query over databases or containers, and the documents' read feed.</summary>
internal sealed class QueriesEndpoint(EmulatorStore store, QueryRunner queries, CosmosEmulatorOptions options)
{
    /// <summary>A page's size limit in bytes when the client asks for a dynamic page (<c>x-ms-max-item-count: -1</c>).</summary>
    private const long MaxPageBytes = 4 * 1024 * 1024;

    /// <summary>The query plan the SDKs ask for before a cross-partition query: the engine's (with the merge of ORDER BY
    /// and TOP when the container has several partition key ranges).</summary>
    public async Task QueryPlanAsync(HttpContext context, ContainerState container)
    {
        using var request = queries.Parse(await GatewayRequest.ReadBodyAsync(context));
        var buffer = new ArrayBufferWriter<byte>(1024);
        using (var writer = new Utf8JsonWriter(buffer))
        {
            if (container.Ranges.Count > 1)
            {
                request.Query.WriteQueryPlanAcrossRanges(writer, request.Parameters);
            }
            else
            {
                request.Query.WriteQueryPlan(writer);
            }
        }

        await GatewayResponse.JsonAsync(context, 200, buffer.WrittenMemory, 0);
    }

    /// <summary>A query over one partition (the partition key header) or the whole container (a range id or
    /// cross-partition), one page per request.</summary>
    public async Task QueryDocumentsAsync(HttpContext context, ContainerState container)
    {
        using var request = queries.Parse(await GatewayRequest.ReadBodyAsync(context));
        IndexUse.CheckOrderBy(request.Query, container.Policy);
        var key = GatewayRequest.HeaderKey(context.Request);
        var range = PartitionKeyRangesEndpoint.AddressedRange(context.Request, container, key);
        if (key is null && range is not null && container.Ranges.Count > 1 && request.Query.NeedsUnplannedMerge)
        {
            throw new StoreException(400, "BadRequest",
                $"This emulator serves '{container.Id}' as {container.Ranges.Count} partition key ranges and plans no cross-partition aggregate or OFFSET/LIMIT (its plan would leave their merge undone); give the query a partition key, or run the emulator with Cosmos:PartitionKeyRanges=1.");
        }

        var indexed = IndexUse.ServesFilter(request.Query, container.Policy);
        var started = Stopwatch.GetTimestamp();
        var page = queries.Execute(request, () => Candidates(container, key, range, request, indexed), GatewayRequest.Continuation(context.Request), PageSize(context.Request), MaxPageBytes);
        UsageHeaders.AddQueryMetrics(context, page, indexed, Stopwatch.GetElapsedTime(started));
        var charge = QueryCharge(page, indexed);
        container.Charge(ChargedOperation.Query, charge);
        await GatewayResponse.FeedAsync(context, container.Rid, "Documents", page.Items, charge, page.Continuation);
    }

    /// <summary>The documents a query must read: those with the ids its filter pins when the policy serves the filter
    /// (the charge then counts the documents that match, which these include: the same charge as a scan's); else those a
    /// spatial index finds for its spatial term when the container's policy indexes that path; else all of them (the
    /// service's full scan, charged per document).</summary>
    private List<ReadOnlyMemory<byte>> Candidates(ContainerState container, string? key, int? range, QueryRunner.Request request, bool indexed)
    {
        List<StoredDocument>? found = null;
        if (indexed && request.Query.FindIdLookup(request.Parameters, container.PartitionKeyPaths) is { } lookup)
        {
            found = container.IdCandidates(lookup, key, range, store.Now);
        }
        else if (request.Query.FindSpatialFilter(request.Parameters) is { } filter)
        {
            found = container.SpatialCandidates(filter, key, store.Now, range);
        }

        if (found is null)
        {
            return Documents(container, key, range);
        }

        var documents = new List<ReadOnlyMemory<byte>>(found.Count);
        foreach (var document in found)
        {
            documents.Add(document.Json);
        }

        return documents;
    }

    /// <summary>A query over databases or containers (their resources as documents).</summary>
    public async Task QueryResourcesAsync(HttpContext context, string rid, string itemsName, IReadOnlyList<byte[]> resources)
    {
        using var request = queries.Parse(await GatewayRequest.ReadBodyAsync(context));
        var page = queries.Execute(request, () => [.. resources.Select(r => (ReadOnlyMemory<byte>)r)], GatewayRequest.Continuation(context.Request), PageSize(context.Request), MaxPageBytes);
        await GatewayResponse.FeedAsync(context, rid, itemsName, page.Items, QueryCharge(page, indexed: false), page.Continuation);
    }

    /// <summary>GET <c>/docs</c>: every document, paged (the change feed is not emulated: see the README).</summary>
    public async Task ReadFeedAsync(HttpContext context, ContainerState container)
    {
        if (context.Request.Headers[CosmosHeaders.AImHeader].Count > 0)
        {
            await GatewayResponse.ErrorAsync(context, 400, "BadRequest", "The change feed is not supported by this emulator.");
            return;
        }

        using var request = queries.Parse("""{"query":"SELECT * FROM c"}"""u8.ToArray());
        var key = GatewayRequest.HeaderKey(context.Request);
        var range = PartitionKeyRangesEndpoint.AddressedRange(context.Request, container, key);
        var page = queries.Execute(request, () => Documents(container, key, range), GatewayRequest.Continuation(context.Request), PageSize(context.Request), MaxPageBytes);
        var charge = QueryCharge(page, indexed: false);
        container.Charge(ChargedOperation.Query, charge);
        await GatewayResponse.FeedAsync(context, container.Rid, "Documents", page.Items, charge, page.Continuation);
    }

    /// <summary>A page's charge: the whole query's when this page ran it (the items it loaded: those matching the
    /// filter when an index serves it, else every one scanned), nothing for a later page served from its result.</summary>
    private static double QueryCharge(QueryRunner.Page page, bool indexed) => page.Executed switch
    {
        null => 0,
        { } run when indexed => RequestCharge.Query(run.DocumentsMatched, run.BytesMatched),
        { } run => RequestCharge.Query(run.DocumentsScanned, run.BytesScanned),
    };

    private List<ReadOnlyMemory<byte>> Documents(ContainerState container, string? key, int? range)
    {
        var snapshot = container.Snapshot(key, range, store.Now);
        var documents = new List<ReadOnlyMemory<byte>>(snapshot.Count);
        foreach (var document in snapshot)
        {
            documents.Add(document.Json);
        }

        return documents;
    }

    private int PageSize(HttpRequest request)
    {
        var value = request.Headers[CosmosHeaders.MaxItemCount].ToString();
        if (value.Length == 0)
        {
            return options.DefaultPageSize;
        }

        return int.TryParse(value, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var size) && size > 0
            ? Math.Min(size, 10_000)
            : int.MaxValue;
    }
}
