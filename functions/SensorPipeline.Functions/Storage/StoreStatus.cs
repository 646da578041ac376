using System.Net;
using Microsoft.Azure.Cosmos;

namespace SensorPipeline.Functions.Storage;

/// <summary>The one place that sorts Cosmos DB answers into what the handler does about them.</summary>
internal static class StoreStatus
{
    /// <summary>449 Retry With: a concurrent write conflict the service asks the client to retry.</summary>
    public const HttpStatusCode RetryWith = (HttpStatusCode)449;

    /// <summary>Worth retrying in the same invocation: throttling, timeouts and the service being briefly unavailable.</summary>
    public static bool IsTransient(HttpStatusCode status) => status is HttpStatusCode.TooManyRequests
        or HttpStatusCode.RequestTimeout
        or HttpStatusCode.ServiceUnavailable
        or HttpStatusCode.Gone
        or HttpStatusCode.InternalServerError
        or RetryWith;

    public static bool IsSuccess(HttpStatusCode status) => (int)status is >= 200 and < 300;

    /// <summary>403.3 WriteForbidden: the region stopped taking writes during a failover; the SDK moves to the new write region.</summary>
    public const int WriteForbidden = 3;

    /// <summary>404.1002 ReadSessionNotAvailable: a replica has not caught up with the session yet.</summary>
    public const int ReadSessionNotAvailable = 1002;

    /// <summary>404.1013: the container is still being created.</summary>
    public const int CollectionCreateInProgress = 1013;

    /// <summary>
    /// Sorts a failed answer: retry it, or a refusal. A refusal's status never says whose fault it is — a 400 is one
    /// malformed document or a container recreated with another partition-key path (400/1001 on every write), a 403 one
    /// device's full partition (1014) or a role still propagating — so a refusal is judged by evidence
    /// (<see cref="StoreCanary"/>), never by its status. Transient: throttling, timeouts, the service unavailable, a
    /// failover (403.3) and replication or creation catching up (404.1002/1013).
    /// </summary>
    public static StoreFault FaultOf(HttpStatusCode status, int subStatus) => (status, subStatus) switch
    {
        (HttpStatusCode.Forbidden, WriteForbidden) => StoreFault.Transient,
        (HttpStatusCode.NotFound, ReadSessionNotAvailable or CollectionCreateInProgress) => StoreFault.Transient,
        _ when IsTransient(status) => StoreFault.Transient,
        _ => StoreFault.Refused,
    };

    /// <summary>The <c>x-ms-substatus</c> header as a number (0 when absent).</summary>
    public static int SubStatus(Headers headers)
    {
        ArgumentNullException.ThrowIfNull(headers);
        return int.TryParse(headers["x-ms-substatus"], System.Globalization.NumberStyles.Integer, System.Globalization.CultureInfo.InvariantCulture, out var value) ? value : 0;
    }
}

/// <summary>What a failed store answer says about the data versus the store.</summary>
internal enum StoreFault
{
    /// <summary>Retry: the same request will succeed later (throttling, timeouts, failover, replication).</summary>
    Transient,

    /// <summary>Refused, not yet judged: <see cref="StoreCanary"/> decides between <see cref="Rejected"/> and <see cref="Systemic"/>.</summary>
    Refused,

    /// <summary>This one document can never be stored (its container took a known-good write meanwhile): dead-letter it and carry on.</summary>
    Rejected,

    /// <summary>The container refuses a known-good write too (a missing role, a deleted or misconfigured container): keep the batch, retry with back-off, raise an alarm.</summary>
    Systemic,
}
