namespace SensorPipeline.EventHubs;

/// <summary>The namespace has no event hub of that name (HTTP 404).</summary>
public sealed class EventHubNotFoundException : Exception
{
    public EventHubNotFoundException() { }
    public EventHubNotFoundException(string message) : base(message) { }
    public EventHubNotFoundException(string message, Exception innerException) : base(message, innerException) { }

    public static EventHubNotFoundException For(string hub) => new($"The namespace has no event hub named '{hub}'.") { Hub = hub };

    public string? Hub { get; private init; }
}
