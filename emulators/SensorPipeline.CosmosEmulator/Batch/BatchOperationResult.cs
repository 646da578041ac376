namespace SensorPipeline.CosmosEmulator.Batch;

/// <summary>The outcome of one batch operation, as the response row carries it back to the SDK.</summary>
/// <param name="StatusCode">HTTP status of the operation (201, 200, 204, 404, 409, 412, 424, 429, …).</param>
/// <param name="SubStatusCode">Cosmos DB sub-status (0 when none).</param>
/// <param name="ETag">The item's ETag after the operation, when there is an item.</param>
/// <param name="ResourceBody">The item JSON (or an error body); empty for Delete or a minimal-return write.</param>
/// <param name="RequestCharge">Request units the operation cost.</param>
/// <param name="RetryAfterMilliseconds">For 429: how long the client waits before retrying the operation.</param>
public sealed record BatchOperationResult(
    int StatusCode,
    int SubStatusCode = 0,
    string? ETag = null,
    ReadOnlyMemory<byte> ResourceBody = default,
    double RequestCharge = 0,
    uint? RetryAfterMilliseconds = null)
{
    /// <summary>2xx: the operation succeeded.</summary>
    public bool IsSuccess => StatusCode is >= 200 and < 300;
}
