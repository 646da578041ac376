using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using SensorPipeline.Emulators.Common;
using SensorPipeline.EventHubs;
using SensorPipeline.EventHubs.Amqp;
using SensorPipeline.EventHubs.Http;

namespace Microsoft.AspNetCore.Builder;

/// <summary>Maps the emulator's HTTP surface: the Event Hubs REST send API, <c>GET /status</c> and the devhost-only
/// peek <c>GET /{hub}/partitions/{id}/events</c> and the storage fault switch <c>PUT|DELETE /admin/eventhubs/disk-full</c>
/// (peek and admin need a loopback Host and <c>X-DevHost-Admin: 1</c>, see <see cref="AdminRequestGuard"/>).</summary>
public static class EventHubsEndpointsExtensions
{
    public static IEndpointRouteBuilder MapEventHubsEndpoints(this IEndpointRouteBuilder endpoints)
    {
        ArgumentNullException.ThrowIfNull(endpoints);
        endpoints.MapPost("/{hub}/messages", SendEndpoint.Handler(SendEndpoint.Target.Hub)).WithName("SendEvents");
        endpoints.MapPost("/{hub}/partitions/{partitionId}/messages", SendEndpoint.Handler(SendEndpoint.Target.Partition)).WithName("SendPartitionEvents");
        endpoints.MapPost("/{hub}/publishers/{publisher}/messages", SendEndpoint.Handler(SendEndpoint.Target.Publisher)).WithName("SendPublisherEvents");
        endpoints.MapGet("/{hub}/partitions/{partitionId}/events", PeekEndpoint.ReadAsync).WithName("PeekPartitionEvents");
        endpoints.MapGet("/status", StatusEndpoint.WriteAsync).WithName("Status");
        endpoints.Map(AmqpConnectionDispatch.WebSocketPath, (HttpContext context, AmqpConnectionDispatch amqp) => amqp.ServeWebSocketAsync(context))
            .WithName("AmqpOverWebSockets");
        endpoints.MapPut("/admin/eventhubs/disk-full", (EventHubsNamespace eventHubs) => SetDiskFull(eventHubs, true))
            .AddEndpointFilter(AdminRequestGuard.Filter)
            .WithName("InjectDiskFull")
            .WithSummary("Every log write fails as on a full disk (ENOSPC) until DELETE: sends get 503 + Retry-After, nothing acknowledged is lost.");
        endpoints.MapDelete("/admin/eventhubs/disk-full", (EventHubsNamespace eventHubs) => SetDiskFull(eventHubs, false))
            .AddEndpointFilter(AdminRequestGuard.Filter)
            .WithName("ClearDiskFull")
            .WithSummary("Writes succeed again; partitions recover by themselves.");
        return endpoints;
    }

    private static Microsoft.AspNetCore.Http.HttpResults.Ok<DiskFullState> SetDiskFull(EventHubsNamespace eventHubs, bool full)
    {
        eventHubs.Storage.FailWrites = full;
        return TypedResults.Ok(new DiskFullState(full));
    }

    /// <summary>The answer of the disk-full switch.</summary>
    public sealed record DiskFullState(bool DiskFull);
}
