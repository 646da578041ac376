using System.Net;

namespace SensorPipeline.Functions.Storage;

/// <summary>
/// The store did not take a write even after the in-invocation retries (or answered something no retry can fix
/// here, such as 401/403). The invocation fails with a non-2xx status so the host re-runs the batch before its
/// checkpoint moves; nothing is acknowledged that was not written.
/// </summary>
internal sealed class StoreUnavailableException : Exception
{
    public StoreUnavailableException(string operation, HttpStatusCode status, int attempts, Exception? inner)
        : base($"Cosmos DB {operation} failed with {(int)status} ({status}) after {attempts} attempt(s).", inner)
    {
        Operation = operation;
        Status = status;
        Attempts = attempts;
    }

    public StoreUnavailableException()
        : this("operation", HttpStatusCode.ServiceUnavailable, 0, null)
    {
    }

    public StoreUnavailableException(string message)
        : base(message)
    {
        Operation = "operation";
    }

    public StoreUnavailableException(string message, Exception innerException)
        : base(message, innerException)
    {
        Operation = "operation";
    }

    public string Operation { get; }

    public HttpStatusCode Status { get; }

    public int Attempts { get; }

    /// <summary>
    /// Transient (the retries ran out: throttling, a timeout, an outage) unless the answer said otherwise: a systemic one
    /// (403/404 by cause) refuses every document alike and must never lead to a dead letter.
    /// </summary>
    public StoreFault Fault { get; init; } = StoreFault.Transient;

    /// <summary>The store's <c>x-ms-substatus</c>, 0 when none.</summary>
    public int SubStatus { get; init; }
}
