using System.Net;
using System.Text.Json;
using Microsoft.Azure.Cosmos;
using Microsoft.Extensions.Options;

namespace SensorPipeline.DevHost.Explorer;

/// <summary>The Cosmos DB page's API: the containers (<c>GET /explorer/api/cosmos/containers</c>: partition key,
/// indexing policy, TTL, and document count and size as the account reports them), a bounded query
/// (<c>GET …/containers/{name}/query?sql=…&amp;pk=…</c>: rows, request charge, query metrics) and a point read
/// (<c>GET …/containers/{name}/items/{id}?pk=…</c>: the document and its charge). Reads only.</summary>
public static class ExplorerCosmosEndpoints
{
    public static async Task ContainersAsync(HttpContext context, ExplorerCosmos cosmos)
    {
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(cosmos);
        var containers = new List<(JsonElement Resource, string? Usage, double Charge)>();
        using (var feed = cosmos.Database.GetContainerQueryStreamIterator())
        {
            while (feed.HasMoreResults)
            {
                using var page = await feed.ReadNextAsync(context.RequestAborted);
                page.EnsureSuccessStatusCode();
                using var json = await JsonDocument.ParseAsync(page.Content, cancellationToken: context.RequestAborted);
                foreach (var resource in json.RootElement.GetProperty("DocumentCollections").EnumerateArray())
                {
                    var id = resource.GetProperty("id").GetString()!;
                    using var read = await cosmos.Container(id).ReadContainerStreamAsync(new ContainerRequestOptions { PopulateQuotaInfo = true }, context.RequestAborted);
                    containers.Add((resource.Clone(), read.Headers["x-ms-resource-usage"], read.Headers.RequestCharge));
                }
            }
        }

        await ExplorerResults.JsonAsync(context, writer => WriteContainers(writer, cosmos.DatabaseName, containers));
    }

    private static void WriteContainers(Utf8JsonWriter writer, string database, List<(JsonElement Resource, string? Usage, double Charge)> containers)
    {
        writer.WriteStartObject();
        writer.WriteString("database", database);
        writer.WriteStartArray("containers");
        foreach (var (resource, usage, charge) in containers)
        {
            writer.WriteStartObject();
            writer.WriteString("id", resource.GetProperty("id").GetString());
            writer.WritePropertyName("partitionKey");
            resource.GetProperty("partitionKey").WriteTo(writer);
            if (resource.TryGetProperty("defaultTtl", out var ttl))
            {
                writer.WritePropertyName("defaultTtl");
                ttl.WriteTo(writer);
            }

            writer.WritePropertyName("indexingPolicy");
            (resource.TryGetProperty("indexingPolicy", out var policy) ? policy : default).WriteTo(writer);
            writer.WriteString("resourceUsage", usage);
            foreach (var (name, value) in ResourceUsage.Parse(usage))
            {
                writer.WriteNumber(name, value);
            }

            writer.WriteNumber("readCharge", charge);
            writer.WriteEndObject();
        }

        writer.WriteEndArray();
        writer.WriteEndObject();
    }

    public static async Task QueryAsync(HttpContext context, string container, ExplorerCosmos cosmos, BoundedQuery runner, IOptions<ExplorerOptions> options)
    {
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(cosmos);
        ArgumentNullException.ThrowIfNull(runner);
        ArgumentNullException.ThrowIfNull(options);
        var sql = context.Request.Query["sql"].ToString();
        if (sql.Length == 0)
        {
            await ExplorerResults.ProblemAsync(context, StatusCodes.Status400BadRequest, "Give the query as 'sql'.");
            return;
        }

        var pk = context.Request.Query["pk"].ToString() is { Length: > 0 } key ? new PartitionKey(key) : (PartitionKey?)null;
        QueryResult result;
        try
        {
            result = await runner.RunAsync(cosmos.Container(container), new QueryDefinition(sql), pk, options.Value, context.RequestAborted);
        }
        catch (CosmosException e)
        {
            await ExplorerResults.ProblemAsync(context, (int)e.StatusCode is >= 400 and < 600 ? (int)e.StatusCode : 502, $"{(int)e.StatusCode} {e.StatusCode}: {FirstLine(e.ResponseBody ?? e.Message)}");
            return;
        }

        await ExplorerResults.JsonAsync(context, writer =>
        {
            writer.WriteStartObject();
            BoundedQuery.WriteSummary(writer, result, options.Value);
            writer.WriteStartArray("rows");
            foreach (var row in result.Rows)
            {
                row.WriteTo(writer);
            }

            writer.WriteEndArray();
            writer.WriteEndObject();
        });
    }

    public static async Task ReadItemAsync(HttpContext context, string container, string id, ExplorerCosmos cosmos)
    {
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(cosmos);
        var pk = context.Request.Query["pk"].ToString();
        using var response = await cosmos.Container(container).ReadItemStreamAsync(id, new PartitionKey(pk.Length > 0 ? pk : id), cancellationToken: context.RequestAborted);
        if (response.StatusCode == HttpStatusCode.NotFound)
        {
            await ExplorerResults.ProblemAsync(context, 404, $"No document '{id}' with partition key '{(pk.Length > 0 ? pk : id)}' in {container} (charge {response.Headers.RequestCharge} RU).");
            return;
        }

        response.EnsureSuccessStatusCode();
        using var json = await JsonDocument.ParseAsync(response.Content, cancellationToken: context.RequestAborted);
        await ExplorerResults.JsonAsync(context, writer =>
        {
            writer.WriteStartObject();
            writer.WriteNumber("requestCharge", response.Headers.RequestCharge);
            writer.WritePropertyName("document");
            json.RootElement.WriteTo(writer);
            writer.WriteEndObject();
        });
    }

    private static string FirstLine(string text) => text.Split('\n', 2)[0].Trim();
}
