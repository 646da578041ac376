using Azure.Identity;
using Microsoft.Azure.Cosmos;
using SensorPipeline.Functions.Options;

namespace SensorPipeline.Functions.Storage;

/// <summary>Builds the process's one <see cref="CosmosClient"/> (it pools connections; one per process is the SDK's rule).
/// Nothing here knows the local emulator: locally the configuration supplies its endpoint and key, and the
/// environment (<c>SSL_CERT_DIR</c>) its certificate, as for any server.</summary>
internal static class CosmosClientFactory
{
    public static CosmosClient Create(CosmosOptions options, int writeParallelism)
    {
        ArgumentNullException.ThrowIfNull(options);
        var endpoint = options.AccountEndpoint ?? throw new InvalidOperationException("Cosmos__AccountEndpoint is required.");
        var clientOptions = ClientOptions(options, writeParallelism);
        if (options.AuthKey is { Length: > 0 } key)
        {
            return new CosmosClient(endpoint.AbsoluteUri, key, clientOptions);
        }

        var credential = new DefaultAzureCredential(new DefaultAzureCredentialOptions { ManagedIdentityClientId = options.ManagedIdentityClientId });
        return new CosmosClient(endpoint.AbsoluteUri, credential, clientOptions);
    }

    /// <summary>The handler's client settings (a benchmark's baseline uses the same).</summary>
    public static CosmosClientOptions ClientOptions(CosmosOptions options, int writeParallelism)
    {
        ArgumentNullException.ThrowIfNull(options);
        return new CosmosClientOptions
        {
            ApplicationName = "sensorpipeline-functions",
            // Gateway mode: one HTTPS endpoint, works through Flex Consumption's outbound rules.
            ConnectionMode = ConnectionMode.Gateway,
            GatewayModeMaxConnectionLimit = Math.Max(50, writeParallelism * 2),
            RequestTimeout = options.OperationTimeout,
            EnableContentResponseOnWrite = false,
            // Throttling is retried by StoreRetry with the limits from Pipeline__TransientRetry*: one policy, one set
            // of settings, and a 429 counts against the same per-operation bound as any other transient answer.
            MaxRetryAttemptsOnRateLimitedRequests = 0,
        };
    }
}
