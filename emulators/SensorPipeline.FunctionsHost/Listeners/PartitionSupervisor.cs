using SensorPipeline.FunctionsHost.Status;

namespace SensorPipeline.FunctionsHost.Listeners;

/// <summary>Keeps one listener per partition the function owns in this instance, for one generation: starts a
/// listener when a partition is gained; when one is lost, signals its listener, which stops before its next batch —
/// the in-flight invocation finishes and is checkpointed, as the Event Hubs processor lets the extension finish the
/// batch it is dispatching. A partition regained while its old listener still finishes waits for that listener, so
/// one partition never has two listeners in one instance. A single instance owns every partition from the start,
/// so this is one listener per partition, as before scale-out.</summary>
internal sealed class PartitionSupervisor(
    FunctionState function,
    Func<string, PartitionListener> createListener,
    Func<PartitionListener, string, Generation, CancellationToken, Task> runListener)
{
    private sealed record Running(Task Task, CancellationTokenSource Lost);

    public async Task RunAsync(Generation generation)
    {
        var running = new Dictionary<string, Running>(StringComparer.Ordinal);
        var ended = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using var registration = generation.Token.Register(() => ended.TrySetResult());
        try
        {
            while (!generation.Token.IsCancellationRequested)
            {
                var changed = function.Owned.Changed;
                var owned = function.Owned.Current;
                foreach (var (partitionId, finished) in running.Where(r => r.Value.Task.IsCompleted).ToList())
                {
                    finished.Lost.Dispose();
                    running.Remove(partitionId);
                }

                foreach (var partitionId in owned.Where(p => !running.ContainsKey(p)))
                {
                    var lost = new CancellationTokenSource();
                    running[partitionId] = new Running(runListener(createListener(partitionId), function.Definition.Name, generation, lost.Token), lost);
                }

                foreach (var listener in running.Where(r => !owned.Contains(r.Key)).Select(r => r.Value))
                {
                    await listener.Lost.CancelAsync();
                }

                // Wake on a change, the generation's end, or a stopping listener finishing (its partition may be
                // owned again and need a new one).
                var wake = running.Values.Where(r => r.Lost.IsCancellationRequested).Select(r => r.Task).Append(changed).Append(ended.Task);
                await Task.WhenAny(wake);
            }
        }
        finally
        {
            await Task.WhenAll(running.Values.Select(r => r.Task));
            foreach (var listener in running.Values)
            {
                listener.Lost.Dispose();
            }
        }
    }
}
