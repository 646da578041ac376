namespace SensorPipeline.EventHubs;

/// <summary>An event, or a batch in total, is over the 1 MiB limit (HTTP 413). Nothing of the batch was appended.</summary>
public sealed class EventTooLargeException : Exception
{
    public EventTooLargeException() { }
    public EventTooLargeException(string message) : base(message) { }
    public EventTooLargeException(string message, Exception innerException) : base(message, innerException) { }

    public static EventTooLargeException For(string what, long size, long limit) =>
        new($"{what} is {size} bytes; the limit is {limit} bytes (body, partition key and properties).") { Size = size, Limit = limit };

    public long Size { get; private init; }

    public long Limit { get; private init; }
}
