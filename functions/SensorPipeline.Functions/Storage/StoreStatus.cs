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

    /// <summary>The store will never take this document (malformed or too large): dead-letter it and carry on.</summary>
    public static bool IsPermanentRejection(HttpStatusCode status) => status is HttpStatusCode.BadRequest or HttpStatusCode.RequestEntityTooLarge;

    public static bool IsSuccess(HttpStatusCode status) => (int)status is >= 200 and < 300;

    /// <summary>403.3 WriteForbidden: the region stopped taking writes during a failover; the SDK moves to the new write region.</summary>
    public const int WriteForbidden = 3;

    /// <summary>403.1014: the document's logical partition (one device) reached its 20 GB maximum.</summary>
    public const int PartitionKeyQuotaOverLimit = 1014;

    /// <summary>404.1002 ReadSessionNotAvailable: a replica has not caught up with the session yet.</summary>
    public const int ReadSessionNotAvailable = 1002;

    /// <summary>404.1013: the container is still being created.</summary>
    public const int CollectionCreateInProgress = 1013;

    /// <summary>
    /// Sorts a 403 or 404 by its cause (the <c>x-ms-substatus</c> header), since one status means opposite things:
    /// 403.1014 is one device's partition being full (this document can never be stored: reject it), 403.3 a failover and
    /// 404.1002/1013 replication or creation catching up (transient), while every other 403 (a role not yet propagated,
    /// the firewall, a deleted account: 1008) and 404 (1003: the container or database is gone) refuses every document
    /// alike — systemic: never a reason to dead-letter, only to keep the batch and raise an alarm.
    /// </summary>
    public static StoreFault FaultOf(HttpStatusCode status, int subStatus) => (status, subStatus) switch
    {
        (HttpStatusCode.Forbidden, PartitionKeyQuotaOverLimit) => StoreFault.Rejected,
        (HttpStatusCode.Forbidden, WriteForbidden) => StoreFault.Transient,
        (HttpStatusCode.NotFound, ReadSessionNotAvailable or CollectionCreateInProgress) => StoreFault.Transient,
        (HttpStatusCode.Unauthorized or HttpStatusCode.Forbidden or HttpStatusCode.NotFound, _) => StoreFault.Systemic,
        _ when IsTransient(status) => StoreFault.Transient,
        _ when IsPermanentRejection(status) => StoreFault.Rejected,
        _ => StoreFault.Systemic,
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

    /// <summary>This one document can never be stored: dead-letter it and carry on.</summary>
    Rejected,

    /// <summary>The store refuses everything alike (a missing role, a deleted container): keep the batch, retry with back-off, raise an alarm.</summary>
    Systemic,
}
