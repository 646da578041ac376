using Microsoft.Extensions.DependencyInjection.Extensions;
using SensorPipeline.EventHubs;
using SensorPipeline.EventHubs.Http;

namespace SensorPipeline.DevHost;

/// <summary>Joins the two libraries the devhost program hosts: the local Functions host reads and writes hubs through
/// <see cref="IEventHubsGateway"/> and the emulator's <c>/status</c> writes every <see cref="IStatusSection"/>; neither
/// library references the other, so the adapters between them live here.</summary>
public static class DevHostWiring
{
    /// <summary>Registers the emulator's <see cref="EventHubsNamespace"/> as the Functions host's
    /// <see cref="IEventHubsGateway"/>, and the Functions host's snapshot as the <c>functionsHost</c> member of
    /// <c>GET /status</c>. Call after AddEventHubsEmulator and AddFunctionsHost.</summary>
    public static IHostApplicationBuilder AddFunctionsHostOverEmulator(this IHostApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        builder.Services.TryAddSingleton<IEventHubsGateway>(sp => new NamespaceGateway(sp.GetRequiredService<EventHubsNamespace>()));
        builder.Services.TryAddEnumerable(ServiceDescriptor.Singleton<IEventHubsEndpoint, OwnEndpoint>());
        builder.Services.TryAddEnumerable(ServiceDescriptor.Singleton<IStatusSection, FunctionsHostStatusSection>());
        return builder;
    }
}
