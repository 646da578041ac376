using Microsoft.Azure.Amqp;

namespace SensorPipeline.EventHubs.Amqp;

/// <summary>Unknown hubs and consumer groups: <c>amqp:not-found</c> with the text the .NET client matches
/// (<c>The messaging entity .* could not be found</c>, its AmqpError) to report ResourceNotFound rather than a
/// communication problem. An unknown partition is out of range instead (<see cref="UnknownPartition"/>).</summary>
internal static class NotFound
{
    public static string Text(EventHubNotFoundException e) => $"The messaging entity '{e.Hub ?? "?"}' could not be found. {e.Message}";

    public static AmqpException Exception(EventHubNotFoundException e) => new(AmqpErrorCode.NotFound, Text(e));

    public static AmqpException Exception(string entity) => new(AmqpErrorCode.NotFound, $"The messaging entity '{entity}' could not be found.");
}
