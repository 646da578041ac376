using System.Text.Json;
using SensorPipeline.Clients;

namespace SensorPipeline.Stack;

/// <summary>
/// The Cosmos DB emulator's charge ledger (<c>GET|DELETE /_emulator/charges</c>, admin, loopback): request units and
/// operation counts by container and operation (create, replace, patch, refused, expiry, read, query), as the
/// emulator's documented charge model bills them, and each container's ranges and bulk requests. The benches read it
/// (<c>bench cost</c> over the chain, <c>bench functions ranges</c> over the processors' write path).
/// </summary>
public static class EmulatorCharges
{
    private static readonly HttpClient Admin = new(CosmosClients.LoopbackEmulatorHandler()) { Timeout = TimeSpan.FromSeconds(30) };

    public static async Task ResetAsync(Uri endpoint, CancellationToken cancellationToken)
    {
        using var request = new HttpRequestMessage(HttpMethod.Delete, new Uri(endpoint, "_emulator/charges"));
        request.Headers.Add(CosmosEmulatorAccount.AdminHeader, "1");
        using var response = await Admin.SendAsync(request, cancellationToken);
        response.EnsureSuccessStatusCode();
    }

    /// <summary>RU and count per (container, operation) since the last reset.</summary>
    public static async Task<IReadOnlyList<(string Container, string Operation, long Count, double RequestUnits)>> ReadAsync(Uri endpoint, CancellationToken cancellationToken)
    {
        using var doc = await GetAsync(endpoint, cancellationToken);
        var rows = new List<(string, string, long, double)>();
        foreach (var c in doc.RootElement.GetProperty("containers").EnumerateArray())
        {
            foreach (var op in c.GetProperty("operations").EnumerateObject())
            {
                rows.Add((c.GetProperty("container").GetString()!, op.Name, op.Value.GetProperty("count").GetInt64(), op.Value.GetProperty("requestUnits").GetDouble()));
            }
        }

        return rows;
    }

    /// <summary>Each container's partition key ranges and the bulk requests it took since the last reset.</summary>
    public static async Task<IReadOnlyList<ContainerRequests>> ReadRequestsAsync(Uri endpoint, CancellationToken cancellationToken)
    {
        using var doc = await GetAsync(endpoint, cancellationToken);
        return [.. doc.RootElement.GetProperty("containers").EnumerateArray().Select(c => new ContainerRequests(
            c.GetProperty("container").GetString()!,
            c.GetProperty("partitionKeyRanges").GetInt32(),
            c.GetProperty("bulk").GetProperty("requests").GetInt64(),
            c.GetProperty("bulk").GetProperty("operations").GetInt64()))];
    }

    private static async Task<JsonDocument> GetAsync(Uri endpoint, CancellationToken cancellationToken)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, new Uri(endpoint, "_emulator/charges"));
        request.Headers.Add(CosmosEmulatorAccount.AdminHeader, "1");
        using var response = await Admin.SendAsync(request, cancellationToken);
        response.EnsureSuccessStatusCode();
        return JsonDocument.Parse(await response.Content.ReadAsStringAsync(cancellationToken));
    }
}

/// <summary>A container's partition key ranges as the emulator serves them, and the bulk requests it took with the
/// operations they carried: the SDK's bulk mode sends one request per range, so operations per request show how well
/// the handler's writes group by range.</summary>
public sealed record ContainerRequests(string Container, int PartitionKeyRanges, long BulkRequests, long BulkOperations)
{
    public double OperationsPerBulkRequest => BulkOperations / (double)Math.Max(1, BulkRequests);
}
