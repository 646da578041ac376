using Microsoft.Azure.Cosmos;

namespace SensorPipeline.CosmosEmulator.Tests;

/// <summary>What the emulator's tests add to the shared launcher (<see cref="CosmosEmulatorProcess"/>): clients with
/// the one client set-up (<see cref="CosmosClients"/>), and data directories that outlive a process.</summary>
internal static class EmulatorClients
{
    /// <summary>A client as an application configures one for the emulator (<see cref="CosmosClients.Create"/>), with
    /// another key, bulk execution or another number of 429 retries when a test needs them.</summary>
    public static CosmosClient CreateClient(this CosmosEmulatorProcess emulator, string? key = null, bool bulk = false, int rateLimitRetries = 9) =>
        CosmosClients.Create(emulator.Endpoint, new CosmosClientOptions { AllowBulkExecution = bulk, MaxRetryAttemptsOnRateLimitedRequests = rateLimitRetries }, key);

    /// <summary>A fresh data directory for an emulator a test restarts over it (the test deletes it, or the OS does).</summary>
    public static string NewDataDirectory() => Path.Combine(Path.GetTempPath(), "cosmos-emulator-tests", Guid.NewGuid().ToString("N"));
}
