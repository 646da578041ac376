using System.Net;

namespace SensorPipeline.Functions.Storage;

/// <summary>What happened to one document write that did not fail the invocation.</summary>
internal enum WriteResult
{
    /// <summary>Stored (created, replaced or patched).</summary>
    Written,

    /// <summary>The guarded device write found a newer (or the same) version already stored: nothing to do.</summary>
    Superseded,

    /// <summary>The store refused this write; not judged yet (<see cref="StoreCanary"/> turns it into <see cref="Rejected"/> or a systemic failure).</summary>
    Refused,

    /// <summary>The store refused this document while its container took a known-good write: it goes to the dead letters.</summary>
    Rejected,
}

/// <summary>A write's result, with the store's status and message when it was refused.</summary>
internal readonly record struct WriteOutcome(WriteResult Result, HttpStatusCode Status, string? Detail = null)
{
    public static WriteOutcome Written(HttpStatusCode status) => new(WriteResult.Written, status);
}
