using Microsoft.Azure.Cosmos;
using Microsoft.Extensions.Options;
using SensorPipeline.Functions.Options;

namespace SensorPipeline.Functions.Storage;

/// <summary>
/// Creates the database and containers at start-up when <c>Cosmos__CreateIfNotExists</c> is true (locally; in
/// Azure the infra creates them and the identity has no control-plane rights), with the indexing policies infra deploys
/// (<see cref="IndexingPolicies"/>). Runs before the server listens, so the host sees the handler ready only once the
/// containers exist.
/// </summary>
internal sealed class ContainerInitializer(CosmosClient client, IOptions<CosmosOptions> options, ILogger<ContainerInitializer> logger) : IHostedService
{
    public async Task StartAsync(CancellationToken cancellationToken)
    {
        var o = options.Value;
        if (!o.CreateIfNotExists)
        {
            return;
        }

        var database = (await client.CreateDatabaseIfNotExistsAsync(o.DatabaseName, cancellationToken: cancellationToken)).Database;
        var readings = Container(o.ReadingsContainer, "/deviceId", "readings");
        readings.DefaultTimeToLive = o.ReadingsTtlSeconds;
        await database.CreateContainerIfNotExistsAsync(readings, cancellationToken: cancellationToken);
        await database.CreateContainerIfNotExistsAsync(Container(o.DevicesContainer, "/deviceId", "devices"), cancellationToken: cancellationToken);
        await database.CreateContainerIfNotExistsAsync(Container(o.ArchiveContainer, "/deviceId", "archive"), cancellationToken: cancellationToken);
        await database.CreateContainerIfNotExistsAsync(Container(o.DeadLettersContainer, "/id", "deadletters"), cancellationToken: cancellationToken);
        var names = string.Join(", ", o.ReadingsContainer, o.DevicesContainer, o.ArchiveContainer, o.DeadLettersContainer);
        FunctionsLog.ContainersReady(logger, o.DatabaseName, names);
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    /// <summary>Hash version 2 and the indexing policy, as infra/app/cosmos.bicep declares them: the SDK leaves the
    /// version unset (version 1), which would hash keys differently from the deployed containers, and its default policy
    /// indexes every path, which would charge every write for terms Azure's containers never store.</summary>
    private static ContainerProperties Container(string name, string partitionKey, string role) =>
        new(name, partitionKey) { PartitionKeyDefinitionVersion = PartitionKeyDefinitionVersion.V2, IndexingPolicy = IndexingPolicies.For(role) };
}
