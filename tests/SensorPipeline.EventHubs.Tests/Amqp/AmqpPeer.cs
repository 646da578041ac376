using System.Globalization;
using Azure.Messaging.EventHubs;
using Azure.Messaging.EventHubs.Consumer;
using Azure.Messaging.EventHubs.Primitives;

namespace SensorPipeline.EventHubs.Tests.Amqp;

/// <summary>The official .NET Event Hubs client pointed at a running devhost, as users point it: the SDK-style
/// connection string with <c>UseDevelopmentEmulator=true</c> on the devhost port.</summary>
internal static class AmqpPeer
{
    public static readonly TimeSpan Timeout = TimeSpan.FromSeconds(30);

    public static string ConnectionString(Uri devHost, string keyName = Sas.KeyName, string key = Sas.Key) =>
        string.Create(CultureInfo.InvariantCulture, $"Endpoint=sb://127.0.0.1:{devHost.Port};SharedAccessKeyName={keyName};SharedAccessKey={key};UseDevelopmentEmulator=true");

    /// <summary>Fails fast: the default retry policy would turn a refusal into a minute of retries.</summary>
    public static EventHubsRetryOptions NoRetries => new() { MaximumRetries = 0, TryTimeout = Timeout };

    /// <summary>Reads <paramref name="count"/> events of a partition from <paramref name="position"/> with a PartitionReceiver.</summary>
    public static async Task<List<EventData>> ReadAsync(Uri devHost, string hub, string partition, EventPosition position, int count, string consumerGroup = "$Default")
    {
        await using var receiver = new PartitionReceiver(consumerGroup, partition, position, ConnectionString(devHost), hub,
            new PartitionReceiverOptions { RetryOptions = NoRetries });
        var events = new List<EventData>();
        using var timeout = new CancellationTokenSource(Timeout);
        while (events.Count < count)
        {
            events.AddRange(await receiver.ReceiveBatchAsync(count - events.Count, TimeSpan.FromSeconds(5), timeout.Token));
        }

        return events;
    }
}
