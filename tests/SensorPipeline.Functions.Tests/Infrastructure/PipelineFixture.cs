namespace SensorPipeline.Functions.Tests.Infrastructure;

/// <summary>One Cosmos DB stand-in, one Event Hubs emulator (where the splitter sends) and one handler, in-process, shared
/// by a collection of tests (each test uses its own devices).</summary>
public sealed class PipelineFixture() : SingleHandlerFixture("tests", withHubs: true)
{
    internal override Task ConfigureAsync(CosmosEmulatorProcess standIn, Dictionary<string, string?> settings)
    {
        // Every write phase through the bulk client, however small, so the shared tests (newer-wins, redelivery,
        // on both sides of the max age) run the batched path; the point path runs in the fixtures with a fault proxy.
        settings["Pipeline__BulkMinimumDocuments"] = "1";
        return Task.CompletedTask;
    }
}

[CollectionDefinition(Name)]
public sealed class PipelineGroup : ICollectionFixture<PipelineFixture>
{
    public const string Name = "pipeline";
}
