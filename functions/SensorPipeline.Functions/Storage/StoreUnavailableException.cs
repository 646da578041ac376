using System.Net;

namespace SensorPipeline.Functions.Storage;

/// <summary>
/// The store did not take a write even after the in-invocation retries, or refused it while refusing a known-good write
/// to the same container too (<see cref="StoreCanary"/>). The invocation fails with a non-2xx status so the host re-runs
/// the batch before its checkpoint moves; nothing is acknowledged that was not written.
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
    /// Transient (the retries ran out: throttling, a timeout, an outage) unless the store refused a known-good write too:
    /// <see cref="StoreFault.Systemic"/>, a fault of the store or the configuration that must never lead to a dead letter.
    /// </summary>
    public StoreFault Fault { get; init; } = StoreFault.Transient;

    /// <summary>The store's <c>x-ms-substatus</c>, 0 when none.</summary>
    public int SubStatus { get; init; }
}
