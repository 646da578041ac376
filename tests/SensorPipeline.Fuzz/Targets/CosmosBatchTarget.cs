using SensorPipeline.CosmosEmulator.Batch;

namespace SensorPipeline.Fuzz.Targets;

/// <summary>A TransactionalBatch or bulk request body (RecordIO segments of HybridRow operations) through the Cosmos
/// DB emulator's <see cref="BatchRequestReader"/>.</summary>
internal static class CosmosBatchTarget
{
    internal static void Run(byte[] body)
    {
        foreach (var operation in BatchRequestReader.Read(body))
        {
            _ = operation.ResourceBody.ToArray();
        }
    }
}
