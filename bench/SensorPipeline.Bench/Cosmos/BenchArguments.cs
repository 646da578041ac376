namespace SensorPipeline.CosmosEmulator.Bench;

/// <summary>What <c>./pipeline bench cosmos</c> runs with (<see cref="Command"/> reads it from the command line).</summary>
/// <param name="Documents">Documents loaded by single upserts, after which memory is read. Default 500,000; 1,000 to 10,000,000.</param>
/// <param name="Reads">Point reads of loaded documents. Default 100,000 (at most <paramref name="Documents"/>); 1 to 10,000,000.</param>
/// <param name="Bulk">Documents written by each of bulk and transactional batch. Default 100,000; 1,000 to 10,000,000.</param>
/// <param name="Concurrency">Requests in flight for upserts and reads. Default 32; 1 to 1,024.</param>
/// <param name="Devices">Partition key values (devices) the documents spread over. Default 1,000; 1 to 100,000.</param>
/// <param name="ReadMany">ReadMany requests of 100 (id, device) pairs each. Default 100; 1 to 100,000.</param>
/// <param name="Stores">Which stores to measure. Default both.</param>
internal sealed record BenchArguments(int Documents, int Reads, int Bulk, int Concurrency, int Devices, int ReadMany, IReadOnlyList<string> Stores)
{
    /// <summary>The bench's command; its action runs <paramref name="run"/>.</summary>
    public static Command Command(Func<BenchArguments, CancellationToken, Task<int>> run)
    {
        var documents = Numbers.Whole("--docs", "Documents loaded by single upserts, after which memory is read", 500_000, 1000, 10_000_000);
        var reads = Numbers.Whole("--reads", "Point reads of loaded documents (at most --docs)", 100_000, 1, 10_000_000);
        var bulk = Numbers.Whole("--bulk", "Documents written by each of bulk and transactional batch", 100_000, 1000, 10_000_000);
        var concurrency = Numbers.Whole("--concurrency", "Requests in flight for upserts and reads", 32, 1, 1024);
        var devices = Numbers.Whole("--devices", "Partition key values (devices) the documents spread over", 1000, 1, 100_000);
        var readMany = Numbers.Whole("--read-many", "ReadMany requests of 100 (id, device) pairs each", 100, 1, 100_000);
        var store = new Option<string>("--store") { Description = $"Which stores to measure: both, {Store.Emulator} or {Store.StandIn}.", DefaultValueFactory = _ => "both" };
        store.AcceptOnlyFromAmong("both", Store.Emulator, Store.StandIn);
        var root = new Command("cosmos", "The Cosmos DB emulator beside the former npm stand-in: upserts, reads, bulk, batch, ReadMany, memory, CPU.")
            .With(documents, reads, bulk, concurrency, devices, readMany, store);
        root.SetAction((parse, token) =>
        {
            var docs = parse.GetValue(documents);
            var which = parse.GetValue(store) is "both" ? new[] { Store.Emulator, Store.StandIn } : [parse.GetValue(store)!];
            return run(new BenchArguments(docs, Math.Min(parse.GetValue(reads), docs), parse.GetValue(bulk), parse.GetValue(concurrency),
                parse.GetValue(devices), parse.GetValue(readMany), which), token);
        });
        return root;
    }
}
