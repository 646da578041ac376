using SensorPipeline.CosmosEmulator.Store;

namespace SensorPipeline.CosmosEmulator.Http;

internal sealed partial class GatewayDispatcher
{
    /// <summary>TransactionalBatch and bulk requests (<c>x-ms-cosmos-is-batch-request</c>): wired to the HybridRow
    /// reader and writer under <c>Batch/</c>.</summary>
    private static Task BatchAsync(HttpContext context, ContainerState container) =>
        GatewayResponse.ErrorAsync(context, 400, "BadRequest", $"Batch requests on '{container.Id}' are not wired yet.");
}
