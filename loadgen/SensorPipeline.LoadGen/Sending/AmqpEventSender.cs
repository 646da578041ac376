using Azure.Identity;
using Azure.Messaging.EventHubs;
using Azure.Messaging.EventHubs.Producer;

namespace SensorPipeline.LoadGen.Sending;

/// <summary>Sends events with the official Event Hubs client over AMQP: one <see cref="EventHubProducerClient"/>, so one
/// connection and one link shared by every send in flight, with the client's own retry policy (exponential, the run's
/// attempts, backoff and attempt timeout). An event counts as sent only once the client's send completed, i.e. the hub
/// settled it Accepted. SAS from a connection string locally; Microsoft Entra (DefaultAzureCredential) on a namespace
/// in Azure.</summary>
internal sealed class AmqpEventSender : IEventSender
{
    private readonly EventHubProducerClient _producer;
    private readonly TimeProvider _time;

    private AmqpEventSender(EventHubProducerClient producer, TimeProvider time)
    {
        _producer = producer;
        _time = time;
        Target = new Uri($"amqps://{producer.FullyQualifiedNamespace}/{producer.EventHubName}");
    }

    public Uri Target { get; }

    /// <summary>A sender to <paramref name="hub"/>: SAS from <paramref name="connectionString"/> when given, else Microsoft
    /// Entra on <paramref name="ns"/>. An EntityPath in the connection string is dropped: the hub is named here.</summary>
    public static AmqpEventSender Create(string? connectionString, string? ns, string hub, SenderSettings settings, TimeProvider time)
    {
        ArgumentNullException.ThrowIfNull(settings);
        var options = new EventHubProducerClientOptions
        {
            RetryOptions = new EventHubsRetryOptions
            {
                Mode = EventHubsRetryMode.Exponential,
                MaximumRetries = settings.MaxAttempts - 1,
                Delay = settings.BaseBackoff,
                MaximumDelay = settings.MaxBackoff,
                TryTimeout = settings.AttemptTimeout,
            },
        };
        var producer = connectionString is not null
            ? new EventHubProducerClient(WithoutEntityPath(connectionString), hub, options)
            : new EventHubProducerClient(ns, hub, new DefaultAzureCredential(), options);
        return new AmqpEventSender(producer, time);
    }

    public async Task<SendOutcome> SendAsync(ReadOnlyMemory<byte> body, CancellationToken cancellationToken)
    {
        var started = _time.GetTimestamp();
        try
        {
            await _producer.SendAsync([new EventData(body)], cancellationToken);
            return new SendOutcome(SendStatus.Sent, 1, 0, _time.GetElapsedTime(started), null);
        }
        catch (EventHubsException e) when (e.IsTransient)
        {
            // The client already retried it as often as the run allows.
            return new SendOutcome(SendStatus.GaveUp, 1, 0, _time.GetElapsedTime(started), $"{e.Reason}: {e.Message}");
        }
        catch (Exception e) when (e is EventHubsException or UnauthorizedAccessException or ArgumentException or InvalidOperationException or NotSupportedException)
        {
            var reason = e is EventHubsException hubs ? hubs.Reason.ToString() : e.GetType().Name;
            return new SendOutcome(SendStatus.Rejected, 1, 0, _time.GetElapsedTime(started), $"{reason}: {e.Message}");
        }
    }

    public void Dispose() => _producer.DisposeAsync().AsTask().GetAwaiter().GetResult();

    private static string WithoutEntityPath(string connectionString) =>
        string.Join(';', connectionString.Split(';', StringSplitOptions.RemoveEmptyEntries)
            .Where(part => !part.TrimStart().StartsWith("EntityPath=", StringComparison.OrdinalIgnoreCase)));
}
