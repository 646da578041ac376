using System.Net;
using System.Text.Json;
using Microsoft.Azure.Cosmos;
using SensorPipeline.Clients;

namespace SensorPipeline.Explorer.Tests;

/// <summary>The explorer's Cosmos DB account comes from devhost's configuration as every devhost setting does: given
/// only on the command line (<c>--set Cosmos__AccountEndpoint=…</c>, the name the settings table gives), devhost's
/// explorer reads the Cosmos DB emulator (a process on a free loopback port).</summary>
public sealed class ExplorerCosmosSettingTests : IAsyncLifetime
{
    private const string Database = "explorer-set";
    private readonly HttpClient _http = new() { Timeout = TimeSpan.FromSeconds(30) };
    private CosmosEmulatorProcess? _cosmos;
    private HubsOnlyDevHost? _devHost;

    public async Task InitializeAsync()
    {
        _cosmos = await CosmosEmulatorProcess.StartAsync();
        using (var client = CosmosClients.Create(_cosmos.Endpoint))
        {
            Microsoft.Azure.Cosmos.Database database = await client.CreateDatabaseIfNotExistsAsync(Database);
            await database.CreateContainerIfNotExistsAsync(new ContainerProperties("devices", "/deviceId") { DefaultTimeToLive = 60 });
        }

        _devHost = await HubsOnlyDevHost.StartAsync("ingestion", partitions: 1, consumerGroup: "splitter",
            settings: ["Cosmos__AccountEndpoint=" + _cosmos.Endpoint, "Cosmos__DatabaseName=" + Database]);
    }

    [Fact]
    public async Task Containers_AccountGivenBySetWithEnvironmentName_ListsTheEmulatorsContainers()
    {
        using var response = await _http.GetAsync(new Uri(_devHost!.BaseAddress, "explorer/api/cosmos/containers"));
        var body = await response.Content.ReadAsStringAsync();

        Assert.True(response.StatusCode == HttpStatusCode.OK, $"{response.StatusCode}: {body}");
        var json = JsonDocument.Parse(body).RootElement;
        Assert.Equal(Database, json.GetProperty("database").GetString());
        var container = Assert.Single(json.GetProperty("containers").EnumerateArray());
        Assert.Equal("devices", container.GetProperty("id").GetString());
        Assert.Equal(60, container.GetProperty("defaultTtl").GetInt32());
    }

    public async Task DisposeAsync()
    {
        _http.Dispose();
        if (_devHost is not null)
        {
            await _devHost.DisposeAsync();
        }

        if (_cosmos is not null)
        {
            await _cosmos.DisposeAsync();
        }
    }
}
