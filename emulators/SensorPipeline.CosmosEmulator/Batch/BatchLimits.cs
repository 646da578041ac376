namespace SensorPipeline.CosmosEmulator.Batch;

/// <summary>The service limits on one batch request (TransactionalBatch or one bulk request), as Azure documents them.</summary>
public static class BatchLimits
{
    /// <summary>At most 100 operations per batch request.</summary>
    public const int MaxOperations = 100;

    /// <summary>At most 2 MB of request body per batch request (413 above it).</summary>
    public const int MaxBodyBytes = 2 * 1024 * 1024;
}
