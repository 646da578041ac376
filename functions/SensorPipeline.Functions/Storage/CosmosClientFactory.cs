using Azure.Identity;
using Microsoft.Azure.Cosmos;
using SensorPipeline.Functions.Options;

namespace SensorPipeline.Functions.Storage;

/// <summary>Builds the process's two <see cref="CosmosClient"/>s, each made once: the point client, and the bulk client
/// (<see cref="CosmosClientOptions.AllowBulkExecution"/>), which the SDK only allows for a whole client and which would
/// hold every small write back for its dispatch timer. Nothing here knows the local emulator: locally the configuration
/// supplies its endpoint, key and connection mode, and the environment (<c>SSL_CERT_DIR</c>) its certificate, as for any server.</summary>
internal static class CosmosClientFactory
{
    public static CosmosClient Create(CosmosOptions options, int writeParallelism, bool bulk = false)
    {
        ArgumentNullException.ThrowIfNull(options);
        var endpoint = options.AccountEndpoint ?? throw new InvalidOperationException("Cosmos__AccountEndpoint is required.");
        var clientOptions = ClientOptions(options, writeParallelism, bulk);
        if (options.AuthKey is { Length: > 0 } key)
        {
            return new CosmosClient(endpoint.AbsoluteUri, key, clientOptions);
        }

        var credential = new DefaultAzureCredential(new DefaultAzureCredentialOptions { ManagedIdentityClientId = options.ManagedIdentityClientId });
        return new CosmosClient(endpoint.AbsoluteUri, credential, clientOptions);
    }

    /// <summary>The handler's client settings (a benchmark's baseline uses the same).</summary>
    public static CosmosClientOptions ClientOptions(CosmosOptions options, int writeParallelism, bool bulk = false)
    {
        ArgumentNullException.ThrowIfNull(options);
        return new CosmosClientOptions
        {
            ApplicationName = bulk ? "sensorpipeline-functions-bulk" : "sensorpipeline-functions",
            ConnectionMode = options.ConnectionMode,
            // The bulk executor groups concurrent point operations per partition key range into batch requests of up
            // to 100 operations; per-operation answers come back as ResponseMessages like a point write's.
            AllowBulkExecution = bulk,
            GatewayModeMaxConnectionLimit = Math.Max(50, writeParallelism * 2),
            RequestTimeout = options.OperationTimeout,
            EnableContentResponseOnWrite = false,
            // Throttling is retried by StoreRetry with the limits from Pipeline__TransientRetry*: one policy, one set
            // of settings, and a 429 counts against the same per-operation bound as any other transient answer.
            MaxRetryAttemptsOnRateLimitedRequests = 0,
        };
    }
}
