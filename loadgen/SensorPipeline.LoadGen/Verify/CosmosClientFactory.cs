using Azure.Identity;
using Microsoft.Azure.Cosmos;

namespace SensorPipeline.LoadGen.Verify;

/// <summary>Creates the Cosmos DB client verify reads with: Gateway mode; for a loopback endpoint (the local stand-in)
/// also LimitToEndpoint, its self-signed certificate accepted, and the 404 fix-up handler.</summary>
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
            // The stand-in has no query-plan endpoint; these make the SDK plan the dead-letter query itself.
            // Process-wide, and read when the first client is created, hence here and only for loopback.
            Environment.SetEnvironmentVariable("AZURE_COSMOS_USE_QUERY_PLAN_INTEROP_LINUX", "true");
            Environment.SetEnvironmentVariable("AZURE_COSMOS_OPTIMISTIC_DIRECT_EXECUTION_ENABLED", "true");
            clientOptions.LimitToEndpoint = true; // it advertises addresses it does not serve
            clientOptions.ServerCertificateCustomValidationCallback = (_, _, _) => true; // self-signed, loopback only
            clientOptions.CustomHandlers.Add(new CrossPartitionReadHandler());
            key ??= VerifyOptions.EmulatorKey;
        }

        return key is not null
            ? new CosmosClient(endpoint.ToString(), key, clientOptions)
            : new CosmosClient(endpoint.ToString(), new DefaultAzureCredential(new DefaultAzureCredentialOptions { ManagedIdentityClientId = options.ManagedIdentityClientId }), clientOptions);
    }
}
