namespace SensorPipeline.EventHubs.Amqp;

/// <summary>Bytes of events the receiver links of an endpoint handed to the AMQP stack, all links together, counted as
/// <see cref="AmqpOptions.MaxQueuedBytesPerLink"/> counts them. With what the peer read off the wire, it is what the
/// endpoint holds for a receiver whose peer stopped reading, the figure that bound is about.</summary>
internal sealed class ReceiverBytes
{
    private long _total;

    public long Total => Interlocked.Read(ref _total);

    public void Add(long bytes) => Interlocked.Add(ref _total, bytes);
}
