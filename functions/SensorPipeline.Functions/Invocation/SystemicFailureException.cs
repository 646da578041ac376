namespace SensorPipeline.Functions.Invocation;

/// <summary>
/// A batch failed for a reason that is neither its events' nor one a retry in the invocation fixes: the store or the
/// configuration is at fault. Nothing is dead-lettered; the invocation answers 500, the host backs off and retries with
/// the checkpoint held, and it pages (<c>SystemicFailures</c>, <c>alert-systemic</c>). Its message names the function,
/// the partition and the batch, so the one error the endpoint logs for it says where.
/// </summary>
internal sealed class SystemicFailureException : Exception
{
    public SystemicFailureException()
        : base("Systemic failure.")
    {
    }

    public SystemicFailureException(string message)
        : base(message)
    {
    }

    public SystemicFailureException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
