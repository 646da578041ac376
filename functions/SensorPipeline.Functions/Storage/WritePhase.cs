namespace SensorPipeline.Functions.Storage;

/// <summary>
/// Runs one write phase: a write per index of <c>order</c>. Through the point client, at most <c>pointParallelism</c>
/// at once. Through the bulk client, every write is started in one pass on the calling thread, in <c>order</c>, before
/// any is awaited: each reaches the SDK's batch of its partition key range within microseconds of the previous one, so
/// writes given in key-space order (<see cref="Core.Processing.KeySpaceOrder"/>) fill one batch request per range
/// instead of being cut by its 100 ms dispatch timer, as they were when each write started as its own thread-pool work
/// item among other invocations' (docs/benchmarks.md, "Routing by the key space"). What goes on the wire the SDK
/// bounds per range; what is in flight is the phase's documents, held already. The first write that fails cancels
/// the rest, and the phase throws its failure, as <see cref="Parallel.ForEachAsync{TSource}(IEnumerable{TSource}, ParallelOptions, Func{TSource, CancellationToken, ValueTask})"/> does.
/// </summary>
internal static class WritePhase
{
    public static async Task RunAsync(ContainerSet set, IReadOnlyList<int> order, int pointParallelism, Func<int, CancellationToken, ValueTask> write,
        CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(set);
        ArgumentNullException.ThrowIfNull(order);
        ArgumentNullException.ThrowIfNull(write);
        if (!set.IsBulk)
        {
            await Parallel.ForEachAsync(order, new ParallelOptions { MaxDegreeOfParallelism = pointParallelism, CancellationToken = cancellationToken }, write);
            return;
        }

        using var failed = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var writes = new Task[order.Count];
        for (var i = 0; i < writes.Length; i++)
        {
            writes[i] = CancelOthersOnFailureAsync(order[i], write, failed);
        }

        await Task.WhenAll(writes);
    }

    private static async Task CancelOthersOnFailureAsync(int index, Func<int, CancellationToken, ValueTask> write, CancellationTokenSource failed)
    {
        try
        {
            await write(index, failed.Token);
        }
        catch
        {
            await failed.CancelAsync();
            throw;
        }
    }
}
