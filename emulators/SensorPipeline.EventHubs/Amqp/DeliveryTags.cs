namespace SensorPipeline.EventHubs.Amqp;

/// <summary>Delivery tags for what the endpoint sends: AMQP 1.0 §2.6.12 requires a tag unique among a link's unsettled
/// deliveries, and a client that leaves deliveries unsettled (the Node SDK does, for $management and $cbs replies)
/// fails on a repeated one. A counter per sender of deliveries gives each its own.</summary>
internal static class DeliveryTags
{
    public static ArraySegment<byte> Next(ref long counter) => new(BitConverter.GetBytes(Interlocked.Increment(ref counter)));
}
