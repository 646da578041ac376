using System.Text.Json;
using SensorPipeline.Clients;

namespace SensorPipeline.Functions.Tests;

/// <summary>The containers the handler creates locally index exactly what infra deploys (infra/app/indexing-policies.json),
/// so the emulator charges the chain what Azure would.</summary>
[Collection(PipelineGroup.Name)]
public sealed class ContainerPolicyTests(PipelineFixture fixture)
{
    [Theory]
    [InlineData("readings")]
    [InlineData("devices")]
    [InlineData("archive")]
    [InlineData("deadletters")]
    public async Task CreateIfNotExists_EveryContainer_HasTheDeployedIndexingPolicy(string container)
    {
        using var file = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(RepoLayout.Current.Root, "infra", "app", "indexing-policies.json")));
        var deployed = file.RootElement.GetProperty(container);

        var created = await fixture.Store.IndexingPolicyAsync(container);

        Assert.Equal(Paths(deployed, "includedPaths"), Paths(created, "includedPaths"));
        Assert.Equal(Paths(deployed, "excludedPaths"), Paths(created, "excludedPaths"));
        Assert.Equal(Paths(deployed, "spatialIndexes"), Paths(created, "spatialIndexes"));
        Assert.Equal("consistent", created.GetProperty("indexingMode").GetString(), ignoreCase: true);
    }

    private static string[] Paths(JsonElement policy, string list) =>
        policy.TryGetProperty(list, out var entries)
            ? [.. entries.EnumerateArray().Select(static e => e.GetProperty("path").GetString()!).Order(StringComparer.Ordinal)]
            : [];
}
