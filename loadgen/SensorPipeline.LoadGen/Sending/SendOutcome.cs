namespace SensorPipeline.LoadGen.Sending;

/// <summary>How a send ended.</summary>
internal enum SendStatus
{
    /// <summary>201 Created: the hub has the event.</summary>
    Sent,

    /// <summary>A permanent failure (400, 401, 403, 404, 413, …): retrying cannot help.</summary>
    Rejected,

    /// <summary>Transient failures until the retry budget ran out.</summary>
    GaveUp,
}

/// <summary>The result of one event's send, retries included.</summary>
/// <param name="Status">How it ended.</param>
/// <param name="Attempts">HTTP attempts made (1 = no retry).</param>
/// <param name="StatusCode">The last HTTP status; 0 when the last attempt got no response.</param>
/// <param name="Latency">From the first attempt to the final answer.</param>
/// <param name="Detail">For failures: the service's message or the exception's.</param>
internal readonly record struct SendOutcome(SendStatus Status, int Attempts, int StatusCode, TimeSpan Latency, string? Detail)
{
    public int Retries => Attempts - 1;
}
