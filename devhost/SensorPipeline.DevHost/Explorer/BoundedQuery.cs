using System.Text.Json;
using Microsoft.Azure.Cosmos;

namespace SensorPipeline.DevHost.Explorer;

/// <summary>What a bounded query read: its rows, the request charge of every page it read, the service's query
/// metrics (when the account answers them), which bound ended it, and whether more rows were left.</summary>
public sealed record QueryResult(IReadOnlyList<JsonElement> Rows, double RequestCharge, int Pages, long Bytes, PeekStop StoppedBy, IReadOnlyList<string> QueryMetrics, TimeSpan Elapsed);

/// <summary>Runs a Cosmos DB query page by page through the SDK's stream iterator, stopping at the first of
/// <see cref="ExplorerOptions.MaxQueryItems"/> rows, <see cref="ExplorerOptions.MaxQueryBytes"/> response bytes and
/// <see cref="ExplorerOptions.MaxTime"/> of the injected clock; asks for query metrics on every page.</summary>
public sealed class BoundedQuery(TimeProvider time)
{
    public async Task<QueryResult> RunAsync(Container container, QueryDefinition query, PartitionKey? partitionKey, ExplorerOptions limits, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(container);
        ArgumentNullException.ThrowIfNull(limits);
        var started = time.GetTimestamp();
        using var deadline = new CancellationTokenSource(limits.MaxTime, time);
        using var linked = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, deadline.Token);
        var options = new QueryRequestOptions { MaxItemCount = limits.MaxQueryItems, PopulateIndexMetrics = false, PartitionKey = partitionKey };
        using var iterator = container.GetItemQueryStreamIterator(query, requestOptions: options);
        var (rows, metrics) = (new List<JsonElement>(), new List<string>());
        var (charge, pages, bytes) = (0.0, 0, 0L);
        QueryResult Stop(PeekStop why) => new(rows, charge, pages, bytes, why, metrics, time.GetElapsedTime(started));
        while (iterator.HasMoreResults)
        {
            if (time.GetElapsedTime(started) >= limits.MaxTime)
            {
                return Stop(PeekStop.Time);
            }

            ResponseMessage page;
            try
            {
                page = await iterator.ReadNextAsync(linked.Token);
            }
            catch (OperationCanceledException) when (deadline.IsCancellationRequested && !cancellationToken.IsCancellationRequested)
            {
                return Stop(PeekStop.Time);
            }

            using (page)
            {
                page.EnsureSuccessStatusCode();
                (charge, pages) = (charge + page.Headers.RequestCharge, pages + 1);
                if (page.Headers["x-ms-documentdb-query-metrics"] is { Length: > 0 } pageMetrics)
                {
                    metrics.Add(pageMetrics);
                }

                var (pageBytes, rowsLeft) = await AddRowsAsync(page, rows, limits.MaxQueryItems, linked.Token);
                bytes += pageBytes;
                if (rowsLeft || (rows.Count == limits.MaxQueryItems && iterator.HasMoreResults))
                {
                    return Stop(PeekStop.Count);
                }

                if (bytes >= limits.MaxQueryBytes)
                {
                    return Stop(PeekStop.Bytes);
                }
            }
        }

        return Stop(PeekStop.End);
    }

    /// <summary>Adds a page's rows, up to <paramref name="max"/> in all; returns the page's bytes and whether rows of
    /// it were left out.</summary>
    private static async Task<(long Bytes, bool RowsLeft)> AddRowsAsync(ResponseMessage page, List<JsonElement> rows, int max, CancellationToken cancellationToken)
    {
        using var buffer = new MemoryStream();
        await page.Content.CopyToAsync(buffer, cancellationToken);
        using var json = JsonDocument.Parse(buffer.ToArray());
        var documents = json.RootElement.GetProperty("Documents");
        var room = max - rows.Count;
        foreach (var row in documents.EnumerateArray().Take(room))
        {
            rows.Add(row.Clone());
        }

        return (buffer.Length, documents.GetArrayLength() > room);
    }

        /// <summary>Writes a result's summary members (rows are the caller's).</summary>
    public static void WriteSummary(Utf8JsonWriter writer, QueryResult result, ExplorerOptions limits)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(limits);
        writer.WriteNumber("requestCharge", Math.Round(result.RequestCharge, 2));
        writer.WriteNumber("pages", result.Pages);
        writer.WriteNumber("bytes", result.Bytes);
        writer.WriteNumber("rowCount", result.Rows.Count);
        writer.WriteString("stoppedBy", result.StoppedBy.ToString().ToLowerInvariant());
        writer.WriteNumber("elapsedMs", Math.Round(result.Elapsed.TotalMilliseconds, 1));
        writer.WriteStartArray("queryMetrics");
        foreach (var m in result.QueryMetrics)
        {
            writer.WriteStringValue(m);
        }

        writer.WriteEndArray();
        writer.WriteStartObject("bounds");
        writer.WriteNumber("maxItems", limits.MaxQueryItems);
        writer.WriteNumber("maxBytes", limits.MaxQueryBytes);
        writer.WriteNumber("maxSeconds", limits.MaxTime.TotalSeconds);
        writer.WriteEndObject();
    }
}
