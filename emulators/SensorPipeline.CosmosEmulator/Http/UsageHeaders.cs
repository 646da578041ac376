using System.Globalization;
using SensorPipeline.CosmosEmulator.Documents;
using SensorPipeline.CosmosEmulator.Queries;

namespace SensorPipeline.CosmosEmulator.Http;

/// <summary>The two headers the service answers only when asked: a container's usage (<c>x-ms-resource-usage</c>, when
/// a container read sets <c>x-ms-documentdb-populatequotainfo: true</c>) and a query page's metrics
/// (<c>x-ms-documentdb-query-metrics</c>, when a query sets <c>x-ms-documentdb-populatequerymetrics: true</c>), in the
/// service's <c>key=value;</c> form that the SDKs parse (Microsoft.Azure.Cosmos <c>CosmosQuotaResponse</c> and
/// <c>ServerSideMetricsParser</c>). Only what the emulator knows is written: sizes from the stored JSON, counts, and the
/// query's measured time; the service's finer timings (compile, plan, index lookup…) are left out, which the parser
/// reads as zero.</summary>
internal static class UsageHeaders
{
    /// <summary><c>documentsCount</c>, <c>documentsSize</c> and <c>collectionSize</c> (kilobytes, rounded up: the
    /// stored JSON; the emulator keeps no index to add), <c>documentSize</c> (megabytes, rounded up).</summary>
    public static void AddResourceUsage(HttpContext context, ContainerState container)
    {
        if (!GatewayRequest.IsTrue(context.Request.Headers[CosmosHeaders.PopulateQuotaInfo]))
        {
            return;
        }

        var bytes = container.Bytes;
        var kilobytes = (bytes + 1023) / 1024;
        var megabytes = (bytes + (1024 * 1024) - 1) / (1024 * 1024);
        context.Response.Headers[CosmosHeaders.ResourceUsage] = string.Create(CultureInfo.InvariantCulture,
            $"documentSize={megabytes};documentsSize={kilobytes};documentsCount={container.DocumentCount};collectionSize={kilobytes};");
    }

    /// <summary>The documents the query loaded (those its filter matched when an index serves it, else every one it
    /// scanned), the page's output, the share of loaded documents that matched, and the time the page took here.
    /// A page served from an earlier page's result loaded nothing.</summary>
    public static void AddQueryMetrics(HttpContext context, QueryRunner.Page page, bool indexed, TimeSpan elapsed)
    {
        if (!GatewayRequest.IsTrue(context.Request.Headers[CosmosHeaders.PopulateQueryMetrics]))
        {
            return;
        }

        var run = page.Executed;
        var (count, size) = run is null ? (0L, 0L) : indexed ? (run.DocumentsMatched, run.BytesMatched) : (run.DocumentsScanned, run.BytesScanned);
        var ratio = count == 0 ? 0 : (double)run!.DocumentsMatched / count;
        context.Response.Headers[CosmosHeaders.QueryMetrics] = string.Create(CultureInfo.InvariantCulture,
            $"totalExecutionTimeInMs={elapsed.TotalMilliseconds:0.00};retrievedDocumentCount={count};retrievedDocumentSize={size};outputDocumentCount={page.Items.Count};outputDocumentSize={page.Bytes};indexUtilizationRatio={ratio:0.00};");
    }
}
