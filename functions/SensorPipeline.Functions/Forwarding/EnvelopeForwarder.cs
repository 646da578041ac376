using Azure.Core;
using Azure.Identity;
using Azure.Messaging.EventHubs;
using Azure.Messaging.EventHubs.Producer;
using Microsoft.Extensions.Options;
using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Splitting;
using SensorPipeline.Functions.Options;

namespace SensorPipeline.Functions.Forwarding;

/// <summary>
/// The splitter's way out: each kind's hub through the official Event Hubs client, because a custom handler's output
/// bindings cannot choose a partition (docs/envelopes-and-routing.md). Locally the emulator's connection string; in
/// Azure the app's managed identity, as for Cosmos DB. Made once per process.
/// </summary>
internal sealed class EnvelopeForwarder : IAsyncDisposable
{
    // One sender per kind, in the catalog's order (the order of SplitResult.Kinds and of the partition counts).
    private readonly HubSender[] _senders;

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
        _senders = [.. SensorKindCatalog.Default.All.Select(k =>
            new HubSender(Client(o, o.HubNames[k.Name] ?? k.Hub, credential, clientOptions), o.MaxConcurrentSends, logger))];
    }

    /// <summary>The partition count of each kind's hub, in the catalog's order (read once each, then cached).</summary>
    public async ValueTask<int[]> PartitionCountsAsync(CancellationToken cancellationToken)
    {
        var counts = new int[_senders.Length];
        for (var i = 0; i < counts.Length; i++)
        {
            counts[i] = await _senders[i].PartitionCountAsync(cancellationToken);
        }

        return counts;
    }

    /// <summary>Sends every kind's envelopes; returns once every event was acknowledged by its hub.</summary>
    public Task SendAsync(SplitResult result, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(result);
        return Task.WhenAll(result.Kinds.Select((kind, i) => _senders[i].SendAsync(kind.Partitions, cancellationToken)));
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var sender in _senders)
        {
            await sender.DisposeAsync();
        }
    }

    private static EventHubProducerClient Client(ForwardingOptions options, string hub, TokenCredential? credential, EventHubProducerClientOptions clientOptions) =>
        credential is null
            ? new EventHubProducerClient(options.ConnectionString, hub, clientOptions)
            : new EventHubProducerClient(options.FullyQualifiedNamespace, hub, credential, clientOptions);
}
