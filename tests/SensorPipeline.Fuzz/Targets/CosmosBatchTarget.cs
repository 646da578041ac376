using SensorPipeline.CosmosEmulator.Batch;

namespace SensorPipeline.Fuzz.Targets;

/// <summary>A TransactionalBatch or bulk request body (RecordIO segments of HybridRow operations) through the Cosmos
/// DB emulator's <see cref="BatchRequestReader"/>.</summary>
internal static class CosmosBatchTarget
{
    public static FuzzTarget Target { get; } = new("cosmos-batch",
        "Cosmos DB emulator: the batch/bulk body (RecordIoFraming, HybridRow operations via BatchRequestReader)",
        Run,
        typeof(BatchFormatException));

    private static void Run(byte[] body)
    {
        foreach (var operation in BatchRequestReader.Read(body))
        {
            _ = operation.ResourceBody.ToArray();
        }
    }
}
