using Azure.Identity;
using Microsoft.Azure.Cosmos;
using SensorPipeline.Clients;

namespace SensorPipeline.LoadGen.Store;

/// <summary>Creates the Cosmos DB client a command reads the store with (<see cref="CosmosClients"/>: the local
/// emulator's key and certificate for a loopback endpoint only); Microsoft Entra when no key is given for a real account.</summary>
internal static class CosmosAccountClient
{
    /// <summary>The client for <paramref name="options"/>' account.</summary>
    /// <param name="options">The account and its credentials.</param>
    /// <param name="applicationName">Names the command in the account's diagnostics (the user agent), so one command's
    /// traffic is not read as another's, e.g. <c>sensorpipeline-loadgen-verify</c>.</param>
    /// <param name="requestsInFlight">Requests the command has in flight at most; the gateway allows that many
    /// connections (at least 50).</param>
    public static CosmosClient Create(CosmosAccountOptions options, string applicationName, int requestsInFlight)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentException.ThrowIfNullOrWhiteSpace(applicationName);
        var endpoint = options.CosmosEndpoint ?? throw new ArgumentException("CosmosEndpoint is required.", nameof(options));
        var clientOptions = new CosmosClientOptions
        {
            ApplicationName = applicationName,
            GatewayModeMaxConnectionLimit = Math.Max(50, requestsInFlight),
            MaxRetryAttemptsOnRateLimitedRequests = 20,
            MaxRetryWaitTimeOnRateLimitedRequests = TimeSpan.FromSeconds(60),
        };
        var credential = options.CosmosKey is null && !options.IsLoopback
            ? new DefaultAzureCredential(new DefaultAzureCredentialOptions { ManagedIdentityClientId = options.ManagedIdentityClientId })
            : null;
        return CosmosClients.Create(endpoint, clientOptions, options.CosmosKey, credential);
    }
}
