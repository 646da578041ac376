using SensorPipeline.CosmosEmulator.Documents;
using SensorPipeline.CosmosEmulator.Throttling;

namespace SensorPipeline.CosmosEmulator.Http;

/// <summary>An injected fault as the service's answer: its error code by status, and a per-document fault as a store
/// error with its retry-after.</summary>
internal static class GatewayFaults
{
    public static string FaultCode(int status) => status switch
    {
        400 => "BadRequest",
        403 => "Forbidden",
        413 => "RequestEntityTooLarge",
        408 => "RequestTimeout",
        410 => "Gone",
        429 => "TooManyRequests",
        449 => "RetryWith",
        500 => "InternalServerError",
        _ => "ServiceUnavailable",
    };

    /// <summary>A per-document fault for this document write (<see cref="FaultRequest.DocumentContains"/>), as a store error.</summary>
    public static (StoreException Error, int RetryAfterMs)? DocumentFault(FaultInjector faults, ReadOnlySpan<byte> document) =>
        faults.MatchDocument(document) is { } fault
            ? (new StoreException(fault.Status, FaultCode(fault.Status), $"Injected fault: {fault.Status} for this document.", fault.SubStatus ?? 0),
                fault.Status == 429 ? fault.RetryAfterMs ?? 100 : 0)
            : null;
}
