using System.Net;

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
}
