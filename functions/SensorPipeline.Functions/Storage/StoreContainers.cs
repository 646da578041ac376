using Microsoft.Azure.Cosmos;
using Microsoft.Extensions.Options;
using SensorPipeline.Functions.Options;

namespace SensorPipeline.Functions.Storage;

/// <summary>The four containers the handler writes, from the process's one <see cref="CosmosClient"/> (no I/O to get them).</summary>
internal sealed class StoreContainers
{
    public StoreContainers(CosmosClient client, IOptions<CosmosOptions> options)
    {
        ArgumentNullException.ThrowIfNull(client);
        ArgumentNullException.ThrowIfNull(options);
        var o = options.Value;
        Readings = client.GetContainer(o.DatabaseName, o.ReadingsContainer);
        Devices = client.GetContainer(o.DatabaseName, o.DevicesContainer);
        Archive = client.GetContainer(o.DatabaseName, o.ArchiveContainer);
        DeadLetters = client.GetContainer(o.DatabaseName, o.DeadLettersContainer);
    }

    public Container Readings { get; }

    public Container Devices { get; }

    public Container Archive { get; }

    public Container DeadLetters { get; }
}
