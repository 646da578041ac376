using SensorPipeline.Functions.Forwarding;
using SensorPipeline.Functions.Invocation;
using SensorPipeline.Functions.Storage;

namespace SensorPipeline.Functions.Endpoints;

/// <summary>How a failed invocation is answered and logged.</summary>
/// <param name="Level">Transient or cancelled → Information (the host retries; nothing is lost); anything else → Error.</param>
/// <param name="Kind">Short failure kind for metrics and logs.</param>
/// <param name="Status">The HTTP status to answer; null when the response must be aborted instead (the host gave up).</param>
/// <param name="Systemic">The store or the configuration is at fault, never the data, and the host will retry it forever:
/// raised with the <c>SystemicFailures</c> metric (<c>alert-systemic</c>).</param>
internal readonly record struct InvocationFailure(LogLevel Level, string Kind, int? Status, bool Systemic = false);

/// <summary>The one exception classifier of the handler.</summary>
internal static class InvocationFailures
{

    public static InvocationFailure Classify(Exception exception, bool hostCancelled)
    {
        ArgumentNullException.ThrowIfNull(exception);
        return Unwrap(exception) switch
        {
            // The host's request is not the custom-handler shape: a contract mismatch someone must fix.
            InvalidInvocationException => new(LogLevel.Error, "invalid-request", StatusCodes.Status400BadRequest, Systemic: true),

            // More than a batch of the handler's maxEventBatchSize: host and handler disagree on the batch size. Its age
            // was reported before this was thrown (the stall alarm); retried, and loud.
            RequestTooLargeException => new(LogLevel.Error, "request-too-large", StatusCodes.Status413RequestEntityTooLarge, Systemic: true),

            // The store refused a write and a known-good write to the same container (the processors say where), or
            // batch after batch fails whole: the store, the configuration or the handler is at fault. Kept, retried, and loud.
            SystemicFailureException or StoreUnavailableException { Fault: StoreFault.Systemic } =>
                new(LogLevel.Error, "systemic", StatusCodes.Status500InternalServerError, Systemic: true),

            // The store did not take the batch: transient; the host's retry policy re-runs it before checkpointing.
            StoreUnavailableException => new(LogLevel.Information, "store-unavailable", StatusCodes.Status500InternalServerError),

            // A hub refused the splitter's envelopes for good (missing, or the identity may not send): retried, and loud.
            ForwardFailedException { Systemic: true } => new(LogLevel.Error, "forward-systemic", StatusCodes.Status500InternalServerError, Systemic: true),

            // A hub did not take the envelopes in time: transient; the batch is re-run before its checkpoint moves.
            ForwardFailedException => new(LogLevel.Information, "hub-unavailable", StatusCodes.Status500InternalServerError),

            // The host cancelled the call (timeout, shutdown): it already counts the invocation as failed.
            OperationCanceledException when hostCancelled => new(LogLevel.Information, "cancelled", null),

            // A bug: answer non-2xx so the batch is retried, and make it loud.
            _ => new(LogLevel.Error, "unhandled", StatusCodes.Status500InternalServerError),
        };
    }

    /// <summary>An AggregateException holding exactly one exception is that exception (as Parallel and Task.WhenAll wrap them).</summary>
    public static Exception Unwrap(Exception exception)
    {
        ArgumentNullException.ThrowIfNull(exception);
        while (exception is AggregateException { InnerExceptions.Count: 1 } aggregate)
        {
            exception = aggregate.InnerExceptions[0];
        }

        return exception;
    }
}
