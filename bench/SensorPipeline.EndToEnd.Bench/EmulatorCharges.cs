using System.Text.Json;
using SensorPipeline.Clients;

namespace SensorPipeline.EndToEnd.Bench;

/// <summary>
/// The Cosmos DB emulator's charge ledger (<c>GET|DELETE /_emulator/charges</c>, admin, loopback): request units and
/// operation counts by container and operation (create, replace, patch, refused, expiry, read, query), as the
/// emulator's documented charge model bills them.
/// </summary>
internal static class EmulatorCharges
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
        using var request = new HttpRequestMessage(HttpMethod.Get, new Uri(endpoint, "_emulator/charges"));
        request.Headers.Add(CosmosEmulatorAccount.AdminHeader, "1");
        using var response = await Admin.SendAsync(request, cancellationToken);
        response.EnsureSuccessStatusCode();
        using var doc = JsonDocument.Parse(await response.Content.ReadAsStringAsync(cancellationToken));
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
}
