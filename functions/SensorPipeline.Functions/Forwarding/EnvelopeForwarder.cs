using Azure.Core;
using Azure.Identity;
using Azure.Messaging.EventHubs;
using Azure.Messaging.EventHubs.Producer;
using Microsoft.Extensions.Options;
using SensorPipeline.Core.Splitting;
using SensorPipeline.Functions.Options;

namespace SensorPipeline.Functions.Forwarding;

/// <summary>
/// The splitter's way out: the weather and seismic hubs through the official Event Hubs client, because a custom
/// handler's output bindings cannot choose a partition (docs/envelopes-and-routing.md). Locally the emulator's
/// connection string; in Azure the app's managed identity, as for Cosmos DB. Made once per process.
/// </summary>
internal sealed class EnvelopeForwarder : IAsyncDisposable
{
    private readonly HubSender _weather;
    private readonly HubSender _seismic;

    public EnvelopeForwarder(IOptions<ForwardingOptions> options, ILogger<EnvelopeForwarder> logger)
    {
        ArgumentNullException.ThrowIfNull(options);
        var o = options.Value;
        var clientOptions = new EventHubProducerClientOptions
        {
            RetryOptions = new EventHubsRetryOptions { MaximumRetries = o.MaxRetries, TryTimeout = o.TryTimeout },
        };
        // In Azure the identity the Functions host uses for the same connection (EventHubConnection__clientId).
        TokenCredential? credential = o.ConnectionString is { Length: > 0 }
            ? null
            : new DefaultAzureCredential(new DefaultAzureCredentialOptions { ManagedIdentityClientId = o.ClientId });
        _weather = new HubSender(Client(o, o.WeatherHubName, credential, clientOptions), o.MaxConcurrentSends, logger);
        _seismic = new HubSender(Client(o, o.SeismicHubName, credential, clientOptions), o.MaxConcurrentSends, logger);
    }

    /// <summary>The partition counts of the weather and seismic hubs (read once each, then cached).</summary>
    public async ValueTask<(int Weather, int Seismic)> PartitionCountsAsync(CancellationToken cancellationToken) =>
        (await _weather.PartitionCountAsync(cancellationToken), await _seismic.PartitionCountAsync(cancellationToken));

    /// <summary>Sends both kinds' envelopes; returns once every event was acknowledged by its hub.</summary>
    public Task SendAsync(SplitResult result, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(result);
        return Task.WhenAll(_weather.SendAsync(result.WeatherPartitions, cancellationToken), _seismic.SendAsync(result.SeismicPartitions, cancellationToken));
    }

    public async ValueTask DisposeAsync()
    {
        await _weather.DisposeAsync();
        await _seismic.DisposeAsync();
    }

    private static EventHubProducerClient Client(ForwardingOptions options, string hub, TokenCredential? credential, EventHubProducerClientOptions clientOptions) =>
        credential is null
            ? new EventHubProducerClient(options.ConnectionString, hub, clientOptions)
            : new EventHubProducerClient(options.FullyQualifiedNamespace, hub, credential, clientOptions);
}
