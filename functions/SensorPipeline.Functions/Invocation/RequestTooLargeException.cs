using System.Globalization;

namespace SensorPipeline.Functions.Invocation;

/// <summary>
/// The host sent a body over what a batch of the handler's <c>maxEventBatchSize</c> can be (<see cref="RequestBody.MaxBytes"/>):
/// the host and the handler disagree on the batch size. Answered 413 after the batch's age was reported, so the stall
/// alarm sees the partition wait; nothing of it is processed and the host retries it.
/// </summary>
internal sealed class RequestTooLargeException : Exception
{
    public RequestTooLargeException(long bytes, long maxBytes, int maxEventBatchSize)
        : base(string.Create(CultureInfo.InvariantCulture,
            $"The request body is {bytes:N0} bytes, over the {maxBytes:N0} a batch of maxEventBatchSize {maxEventBatchSize} can be: the Functions host sends larger batches than the handler was started for (host.json's extensions.eventHubs.maxEventBatchSize, or the app setting {Options.HostJsonSettings.MaxEventBatchSizeOverride} over it). Nothing of it was processed; the host retries it."))
    {
    }

    public RequestTooLargeException()
    {
    }

    public RequestTooLargeException(string message)
        : base(message)
    {
    }

    public RequestTooLargeException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
