using Azure.Identity;
using Microsoft.Azure.Cosmos;

namespace SensorPipeline.LoadGen.Verify;

/// <summary>Creates the Cosmos DB client verify reads with: Gateway mode; for a loopback endpoint (the local emulator)
/// also LimitToEndpoint and its self-signed certificate accepted.</summary>
internal static class CosmosClientFactory
{
    public static CosmosClient Create(VerifyOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var endpoint = options.CosmosEndpoint ?? throw new ArgumentException("CosmosEndpoint is required.", nameof(options));
        var clientOptions = new CosmosClientOptions
        {
            ConnectionMode = ConnectionMode.Gateway,
            ApplicationName = "sensorpipeline-loadgen-verify",
            // Two point reads per reading check, concurrently.
            GatewayModeMaxConnectionLimit = Math.Max(50, options.Concurrency * 2),
            MaxRetryAttemptsOnRateLimitedRequests = 20,
            MaxRetryWaitTimeOnRateLimitedRequests = TimeSpan.FromSeconds(60),
        };
        var key = options.CosmosKey;
        if (options.IsLoopback)
        {
            clientOptions.LimitToEndpoint = true; // only the endpoint dialled
            clientOptions.ServerCertificateCustomValidationCallback = (_, _, _) => true; // self-signed, loopback only
            key ??= VerifyOptions.EmulatorKey;
        }

        return key is not null
            ? new CosmosClient(endpoint.ToString(), key, clientOptions)
            : new CosmosClient(endpoint.ToString(), new DefaultAzureCredential(new DefaultAzureCredentialOptions { ManagedIdentityClientId = options.ManagedIdentityClientId }), clientOptions);
    }
}
