using Microsoft.Azure.Amqp;

namespace SensorPipeline.EventHubs.Amqp;

/// <summary>Unknown entities: <c>amqp:not-found</c> with the text the .NET client matches
/// (<c>The messaging entity .* could not be found</c>, its AmqpError) to report ResourceNotFound rather than a
/// communication problem.</summary>
internal static class NotFound
{
    public static string Text(Exception e) => $"The messaging entity '{Entity(e)}' could not be found. {e.Message}";

    public static AmqpException Exception(Exception e) => new(AmqpErrorCode.NotFound, Text(e));

    public static AmqpException Exception(string entity) => new(AmqpErrorCode.NotFound, $"The messaging entity '{entity}' could not be found.");

    private static string Entity(Exception e) => e switch
    {
        EventHubNotFoundException h => h.Hub ?? "?",
        PartitionNotFoundException p => $"{p.Hub}/Partitions/{p.PartitionId}",
        _ => "?",
    };
}
