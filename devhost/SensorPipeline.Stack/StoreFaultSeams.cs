using System.Net.Http.Json;
using System.Text.Json;
using SensorPipeline.Clients;

namespace SensorPipeline.Stack;

/// <summary>The storage faults a chaos run injects through the components' own admin seams (simulated full disks, a
/// store answering with faults): HTTP calls on the running stack, apart from the kills and restarts the stack owns.</summary>
public static class StoreFaultSeams
{
    private static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web);
    private static readonly HttpClient Admin = new() { Timeout = TimeSpan.FromSeconds(30) };
    private static readonly HttpClient CosmosAdmin = new(CosmosClients.LoopbackEmulatorHandler()) { Timeout = TimeSpan.FromSeconds(30) };

    /// <summary>Asks the Cosmos DB emulator to answer with a fault (<c>POST /_emulator/faults</c>) for a while.</summary>
    public static async Task InjectStoreFaultAsync(this LocalPipeline pipeline, InjectedStoreFault fault, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(pipeline);
        ArgumentNullException.ThrowIfNull(fault);
        using var request = new HttpRequestMessage(HttpMethod.Post, new Uri(pipeline.CosmosEndpoint, "_emulator/faults")) { Content = JsonContent.Create(fault, options: Json) };
        request.Headers.Add(CosmosEmulatorAccount.AdminHeader, "1");
        using var response = await CosmosAdmin.SendAsync(request, cancellationToken);
        response.EnsureSuccessStatusCode();
    }

    /// <summary>Turns the event log's simulated full disk on or off (devhost's storage fault seam, never the real disk).</summary>
    public static async Task SetEventLogDiskFullAsync(this LocalPipeline pipeline, bool full, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(pipeline);
        using var request = new HttpRequestMessage(full ? HttpMethod.Put : HttpMethod.Delete, new Uri(pipeline.DevHostUrl, "admin/eventhubs/disk-full"));
        request.Headers.Add("X-DevHost-Admin", "1");
        using var response = await Admin.SendAsync(request, cancellationToken);
        response.EnsureSuccessStatusCode();
    }

    /// <summary>Turns the Cosmos DB emulator's simulated full disk on or off (<c>PUT|DELETE /_emulator/disk-full</c>: its
    /// log's storage fault seam, never the real disk).</summary>
    public static async Task SetStoreDiskFullAsync(this LocalPipeline pipeline, bool full, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(pipeline);
        using var request = new HttpRequestMessage(full ? HttpMethod.Put : HttpMethod.Delete, new Uri(pipeline.CosmosEndpoint, "_emulator/disk-full"));
        request.Headers.Add(CosmosEmulatorAccount.AdminHeader, "1");
        using var response = await CosmosAdmin.SendAsync(request, cancellationToken);
        response.EnsureSuccessStatusCode();
    }
}
