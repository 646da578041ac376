using Azure.Identity;
using Microsoft.Azure.Cosmos;
using SensorPipeline.Clients;

namespace SensorPipeline.LoadGen.Verify;

/// <summary>Creates the Cosmos DB client verify and redrive read with (<see cref="CosmosClients"/>: the local emulator's
/// key and certificate for a loopback endpoint only); Microsoft Entra when no key is given for a real account.</summary>
internal static class VerifyCosmosClient
{
    /// <summary>The client for verify's reading checks, <see cref="VerifyOptions.Concurrency"/> at once.</summary>
    public static CosmosClient Create(VerifyOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        return Create(options, options.Concurrency);
    }

    /// <summary>The client for <paramref name="concurrency"/> checks at once, each up to two point reads.</summary>
    public static CosmosClient Create(CosmosAccountOptions options, int concurrency)
    {
        ArgumentNullException.ThrowIfNull(options);
        var endpoint = options.CosmosEndpoint ?? throw new ArgumentException("CosmosEndpoint is required.", nameof(options));
        var clientOptions = new CosmosClientOptions
        {
            ApplicationName = "sensorpipeline-loadgen-verify",
            // Two point reads per reading check, concurrently.
            GatewayModeMaxConnectionLimit = Math.Max(50, concurrency * 2),
            MaxRetryAttemptsOnRateLimitedRequests = 20,
            MaxRetryWaitTimeOnRateLimitedRequests = TimeSpan.FromSeconds(60),
        };
        var credential = options.CosmosKey is null && !options.IsLoopback
            ? new DefaultAzureCredential(new DefaultAzureCredentialOptions { ManagedIdentityClientId = options.ManagedIdentityClientId })
            : null;
        return CosmosClients.Create(endpoint, clientOptions, options.CosmosKey, credential);
    }
}
