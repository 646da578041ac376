using System.Globalization;

namespace SensorPipeline.Toolkit;

/// <summary>
/// The real devhost program serving one hub and no functions, for tests of what devhost serves beside the Functions
/// host (the explorer, the telemetry endpoints): an app folder with host.json and the hub's emulator config, azurite as
/// its <c>AzureWebJobsStorage</c> (the Functions host requires one, as the stack gives it), devhost on a free loopback
/// port. Disposing stops both and deletes the folder.
/// </summary>
public sealed class HubsOnlyDevHost : IAsyncDisposable
{
    private readonly TempDirectory _root;
    private readonly AzuriteProcess _azurite;

    private HubsOnlyDevHost(TempDirectory root, AzuriteProcess azurite, DevHostProcess devHost)
    {
        _root = root;
        _azurite = azurite;
        DevHost = devHost;
    }

    public DevHostProcess DevHost { get; }

    /// <summary>Its address, ending in <c>/</c>.</summary>
    public Uri BaseAddress => DevHost.BaseAddress;

    /// <summary>Starts azurite and devhost serving <paramref name="hub"/> with <paramref name="partitions"/>
    /// partitions and the consumer group <paramref name="consumerGroup"/>; each of <paramref name="settings"/>
    /// (<c>Key=Value</c>) is passed as <c>--set</c>.</summary>
    public static async Task<HubsOnlyDevHost> StartAsync(string hub, int partitions, string consumerGroup, IReadOnlyList<string>? settings = null,
        CancellationToken cancellationToken = default)
    {
        var root = new TempDirectory("devhost-hubs-only-");
        AzuriteProcess? azurite = null;
        try
        {
            File.WriteAllText(root.File("host.json"), """{"version": "2.0", "customHandler": {"description": {"defaultExecutablePath": "node"}}}""");
            File.WriteAllText(root.File("eventhubs.emulator.json"), string.Create(CultureInfo.InvariantCulture, $$$$"""
                {"UserConfig": {"NamespaceConfig": [{"Type": "EventHub", "Name": "ns", "Entities": [
                  {"Name": "{{{{hub}}}}", "PartitionCount": "{{{{partitions}}}}", "ConsumerGroups": [{"Name": "{{{{consumerGroup}}}}"}]}]}], "LoggingConfig": {"Type": "File"}}}
                """));
            azurite = await AzuriteProcess.StartAsync(cancellationToken);
            var devHost = await DevHostProcess.StartAsync(new DevHostStart
            {
                AppRoot = root.Path, DataDirectory = root.File(".data"), Settings = settings ?? [],
                Environment = new Dictionary<string, string?> { ["AzureWebJobsStorage"] = azurite.ConnectionString },
            }, cancellationToken: cancellationToken);
            return new HubsOnlyDevHost(root, azurite, devHost);
        }
        catch
        {
            if (azurite is not null)
            {
                await azurite.DisposeAsync();
            }

            root.Dispose();
            throw;
        }
    }

    public async ValueTask DisposeAsync()
    {
        await DevHost.DisposeAsync();
        await _azurite.DisposeAsync();
        _root.Dispose();
    }
}
