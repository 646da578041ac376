using Azure.Identity;
using Microsoft.Azure.Cosmos;
using SensorPipeline.Functions.Options;

namespace SensorPipeline.Functions.Storage;

/// <summary>Builds the process's one <see cref="CosmosClient"/> (it pools connections; one per process is the SDK's rule).</summary>
internal static class CosmosClientFactory
{
    public static CosmosClient Create(CosmosOptions options, int writeParallelism)
    {
        ArgumentNullException.ThrowIfNull(options);
        var endpoint = options.AccountEndpoint ?? throw new InvalidOperationException("Cosmos__AccountEndpoint is required.");
        var clientOptions = new CosmosClientOptions
        {
            ApplicationName = "sensorpipeline-functions",
            // Gateway mode: one HTTPS endpoint, works through Flex Consumption's outbound rules and with the local
            // emulator (which serves the gateway protocol only).
            ConnectionMode = ConnectionMode.Gateway,
            GatewayModeMaxConnectionLimit = Math.Max(50, writeParallelism * 2),
            RequestTimeout = options.OperationTimeout,
            EnableContentResponseOnWrite = false,
            // Throttling is retried by StoreRetry with the limits from Pipeline__TransientRetry*: one policy, one set
            // of settings, and a 429 counts against the same per-operation bound as any other transient answer.
            MaxRetryAttemptsOnRateLimitedRequests = 0,
        };

        if (options.IsLoopback)
        {
            // The local emulator serves a self-signed certificate, accepted as the SDK's emulator guidance says, and
            // only this endpoint is dialled; both concessions are made for a loopback endpoint only, never for a real account.
            clientOptions.LimitToEndpoint = true;
            clientOptions.ServerCertificateCustomValidationCallback = static (_, _, _) => true;
        }

        if (options.AuthKey is { Length: > 0 } key)
        {
            return new CosmosClient(endpoint.AbsoluteUri, key, clientOptions);
        }

        var credential = new DefaultAzureCredential(new DefaultAzureCredentialOptions { ManagedIdentityClientId = options.ManagedIdentityClientId });
        return new CosmosClient(endpoint.AbsoluteUri, credential, clientOptions);
    }
}
