namespace SensorPipeline.Functions.Invocation;

/// <summary>The host's request does not have the custom-handler shape (a contract mismatch, not bad data): answered 400.</summary>
internal sealed class InvalidInvocationException : Exception
{
    public InvalidInvocationException()
    {
    }

    public InvalidInvocationException(string message)
        : base(message)
    {
    }

    public InvalidInvocationException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
