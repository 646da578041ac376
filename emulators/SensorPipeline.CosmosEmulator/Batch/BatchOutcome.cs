namespace SensorPipeline.CosmosEmulator.Batch;

/// <summary>
/// The service's rules for answering a batch, shared by the endpoint and the tests: which HTTP status wraps the
/// per-operation results, and what the other operations of a failed atomic batch report.
/// </summary>
public static class BatchOutcome
{
    /// <summary>207: some operation failed; the body says which (the SDK promotes the first failure for TransactionalBatch).</summary>
    public const int MultiStatus = 207;

    /// <summary>424: the operation was not applied because another operation of its atomic batch failed.</summary>
    public const int FailedDependency = 424;

    /// <summary>200 when every operation succeeded, otherwise 207 Multi-Status.</summary>
    public static int HttpStatus(IReadOnlyList<BatchOperationResult> results)
    {
        ArgumentNullException.ThrowIfNull(results);
        foreach (var result in results)
        {
            if (!result.IsSuccess)
            {
                return MultiStatus;
            }
        }

        return 200;
    }

    /// <summary>
    /// The results of an atomic batch whose operation <paramref name="failedIndex"/> failed with
    /// <paramref name="failure"/>: nothing was applied, so that operation reports its failure and every other one
    /// 424 Failed Dependency.
    /// </summary>
    public static BatchOperationResult[] AbortedAtomic(int operationCount, int failedIndex, BatchOperationResult failure)
    {
        ArgumentNullException.ThrowIfNull(failure);
        ArgumentOutOfRangeException.ThrowIfNegative(failedIndex);
        ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual(failedIndex, operationCount);
        if (failure.IsSuccess)
        {
            throw new ArgumentException("An atomic batch aborts on a failed operation, not a successful one.", nameof(failure));
        }

        var results = new BatchOperationResult[operationCount];
        for (var i = 0; i < operationCount; i++)
        {
            results[i] = i == failedIndex ? failure : new BatchOperationResult(FailedDependency);
        }

        return results;
    }
}
