using SensorPipeline.CosmosEmulator.Store;

namespace SensorPipeline.CosmosEmulator.Http;

internal sealed partial class GatewayDispatcher
{
    /// <summary>TransactionalBatch and bulk requests (<c>x-ms-cosmos-is-batch-request</c>): see <see cref="BatchEndpoint"/>.</summary>
    private Task BatchAsync(HttpContext context, ContainerState container) => BatchEndpoint.HandleAsync(context, store, container, queries.Predicate);
}
