namespace SensorPipeline.Functions.Bench;

/// <summary>
/// One setting of <see cref="RangesBench"/>: its emulator, its handler, its owned partitions' devices (one invocation per
/// partition each round, holding that partition's devices only, as the splitter routes them), and its figures per
/// measured round: the handler's CPU (<see cref="Tally"/>) and the bulk requests to <c>readings</c> (the emulator's ledger).
/// </summary>
internal sealed class RangesContender(string name, CosmosEmulatorProcess store, WebApplication app, string[][] partitions, int invocation) : IDisposable
{
    private readonly Batches[] _batches = [.. partitions.Select(devices => new Batches(devices.Length, invocation, devices))];
    private readonly List<(long Requests, long Operations)> _bulk = [];

    public string Name => name;

    public Tally Tally { get; } = new(name);

    /// <summary>Operations per bulk request to <c>readings</c> of each measured round.</summary>
    public IReadOnlyList<double> RoundOperationsPerRequest => [.. _bulk.Select(b => b.Operations / (double)Math.Max(1, b.Requests))];

    /// <summary>Bulk requests and their operations over every measured round.</summary>
    public (long Requests, long Operations) Bulk => (_bulk.Sum(b => b.Requests), _bulk.Sum(b => b.Operations));

    public async Task RunAsync(bool measured)
    {
        var writer = BenchHandler.Weather(app);
        var invocations = _batches.Select(b => b.Next(1)[0]).ToList();
        var before = await ReadingsBulkAsync();
        Task Write() => Task.WhenAll(invocations.Select(i => writer.WriteAsync(i.Result, i.Now, CancellationToken.None)));
        if (!measured)
        {
            await Write();
            return;
        }

        await Tally.MeasureAsync(invocations, Write);
        var after = await ReadingsBulkAsync();
        _bulk.Add((after.BulkRequests - before.BulkRequests, after.BulkOperations - before.BulkOperations));
    }

    public void Dispose()
    {
        foreach (var batches in _batches)
        {
            batches.Dispose();
        }
    }

    private async Task<ContainerRequests> ReadingsBulkAsync() =>
        (await EmulatorCharges.ReadRequestsAsync(store.Endpoint, CancellationToken.None)).Single(c => c.Container == "readings");
}
