namespace SensorPipeline.CosmosEmulator.Batch;

/// <summary>
/// A batch request body the emulator cannot accept: not HybridRow RecordIO as the SDKs write it, a corrupt record,
/// an operation the batch API does not define, or over the batch limits. The server answers
/// <see cref="StatusCode"/> (400, or 413 for a body over <see cref="BatchLimits.MaxBodyBytes"/>) with the message,
/// and executes none of the operations.
/// </summary>
public sealed class BatchFormatException : Exception
{
    public BatchFormatException(string message, int statusCode = 400)
        : base(message)
    {
        StatusCode = statusCode;
    }

    public BatchFormatException()
        : this("Malformed batch request.")
    {
    }

    public BatchFormatException(string message, Exception innerException)
        : base(message, innerException)
    {
        StatusCode = 400;
    }

    /// <summary>The HTTP status the server answers: 400 Bad Request, or 413 Request Entity Too Large.</summary>
    public int StatusCode { get; }
}
