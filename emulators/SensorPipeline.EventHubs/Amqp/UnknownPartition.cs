using Microsoft.Azure.Amqp;
using Microsoft.Azure.Amqp.Framing;

namespace SensorPipeline.EventHubs.Amqp;

/// <summary>A partition the hub does not have, as Event Hubs answers it on a sender's or receiver's attach and on a
/// <c>$management</c> READ: <c>com.microsoft:argument-out-of-range</c> with the service's text, which the SDKs report
/// as ArgumentOutOfRange (.NET <c>ArgumentOutOfRangeException</c>, Node <c>ArgumentOutOfRangeError</c>). An unknown hub
/// or consumer group is not-found (<see cref="NotFound"/>).</summary>
internal static class UnknownPartition
{
    public const string Condition = "com.microsoft:argument-out-of-range";

    public static string Text(PartitionNotFoundException e) =>
        $"The specified partition is invalid for an EventHub partition sender or receiver. It should be between 0 and {e.PartitionCount - 1}.";

    public static Error Error(PartitionNotFoundException e) => new() { Condition = Condition, Description = Text(e) };

    public static AmqpException Exception(PartitionNotFoundException e) => new(Error(e));
}
