using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Routing;
using SensorPipeline.EventHubs.Http;

namespace Microsoft.AspNetCore.Builder;

/// <summary>Maps the emulator's HTTP surface: the Event Hubs REST send API, <c>GET /status</c> and the devhost-only
/// peek <c>GET /{hub}/partitions/{id}/events</c>.</summary>
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
        return endpoints;
    }
}
