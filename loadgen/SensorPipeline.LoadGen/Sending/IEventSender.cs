namespace SensorPipeline.LoadGen.Sending;

/// <summary>Sends one event and says how it ended: over AMQP with the official client (<see cref="AmqpEventSender"/>)
/// or over the REST send API (<see cref="EventSender"/>).</summary>
internal interface IEventSender : IDisposable
{
    /// <summary>Where events go (the ledger records it).</summary>
    Uri Target { get; }

    /// <summary>Sends one event; never throws for a service or network failure (the outcome says), only on cancellation.</summary>
    Task<SendOutcome> SendAsync(ReadOnlyMemory<byte> body, CancellationToken cancellationToken);
}
