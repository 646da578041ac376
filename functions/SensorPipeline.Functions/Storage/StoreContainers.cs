using Microsoft.Azure.Cosmos;
using Microsoft.Extensions.Options;
using SensorPipeline.Functions.Options;

namespace SensorPipeline.Functions.Storage;

/// <summary>
/// The four containers the handler writes, through the point client and through the bulk client (no I/O to get them).
/// <see cref="For"/> picks per write phase: bulk packs many documents into few requests, point answers a few documents
/// at once instead of waiting for the bulk client's dispatch timer.
/// </summary>
internal sealed class StoreContainers
{
    /// <summary>The DI key of the bulk <see cref="CosmosClient"/>.</summary>
    public const string BulkClient = "bulk";

    private readonly int _bulkMinimum;

    public StoreContainers(CosmosClient client, [FromKeyedServices(BulkClient)] CosmosClient bulk, IOptions<CosmosOptions> options, IOptions<PipelineOptions> pipeline)
    {
        ArgumentNullException.ThrowIfNull(client);
        ArgumentNullException.ThrowIfNull(bulk);
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(pipeline);
        Point = new ContainerSet(client, options.Value, bulk: false);
        Bulk = new ContainerSet(bulk, options.Value, bulk: true);
        _bulkMinimum = pipeline.Value.BulkMinimumDocuments;
    }

    /// <summary>The containers through the point client (reads, queries, small write phases).</summary>
    public ContainerSet Point { get; }

    /// <summary>The containers through the bulk client.</summary>
    public ContainerSet Bulk { get; }

    public Container Readings => Point.Readings;

    public Container Devices => Point.Devices;

    public Container Archive => Point.Archive;

    public Container DeadLetters => Point.DeadLetters;

    /// <summary>The set a write phase of <paramref name="documents"/> documents goes through (<see cref="PipelineOptions.BulkMinimumDocuments"/>).</summary>
    public ContainerSet For(int documents) => documents >= _bulkMinimum ? Bulk : Point;
}

/// <summary>The four containers through one client.</summary>
internal sealed class ContainerSet
{
    public ContainerSet(CosmosClient client, CosmosOptions options, bool bulk)
    {
        Readings = client.GetContainer(options.DatabaseName, options.ReadingsContainer);
        Devices = client.GetContainer(options.DatabaseName, options.DevicesContainer);
        Archive = client.GetContainer(options.DatabaseName, options.ArchiveContainer);
        DeadLetters = client.GetContainer(options.DatabaseName, options.DeadLettersContainer);
        IsBulk = bulk;
    }

    public Container Readings { get; }

    public Container Devices { get; }

    public Container Archive { get; }

    public Container DeadLetters { get; }

    /// <summary>True for the bulk client: every write of the phase is started at once, so they fill batch requests.</summary>
    public bool IsBulk { get; }

    /// <summary>
    /// How many writes of a phase of <paramref name="documents"/> run at once: all of them in bulk (the executor bounds
    /// what goes on the wire; fewer in flight would leave each batch part-full and waiting for the dispatch timer), else
    /// <paramref name="pointParallelism"/>.
    /// </summary>
    public int Parallelism(int documents, int pointParallelism) => IsBulk ? Math.Max(1, documents) : pointParallelism;
}
