namespace SensorPipeline.FunctionsHost.Listeners;

/// <summary>One life of the handler process and the event processors bound to it. The Functions host restarts itself
/// (and so the handler) on a function timeout, and restarts the handler when it dies; both end the generation:
/// processors stop without checkpointing their in-flight batches, and the next generation resumes every partition
/// from its checkpoint — the batches are redelivered.</summary>
internal sealed class Generation(int handlerPort, Task<int> handlerExited, CancellationTokenSource restart, CancellationToken stopping)
{
    public int HandlerPort { get; } = handlerPort;

    public Task<int> HandlerExited { get; } = handlerExited;

    /// <summary>Cancelled when this generation ends (restart or shutdown).</summary>
    public CancellationToken Token { get; } = restart.Token;

    /// <summary>Cancelled on devhost shutdown only.</summary>
    public CancellationToken Stopping { get; } = stopping;

    /// <summary>True when a processor failed unexpectedly (not a handler death or timeout): the next generation waits
    /// HandlerRestartDelay first, so a persistent fault (e.g. Storage down at start) cannot spin.</summary>
    public bool ProcessorFailed { get; private set; }

    public void RequestRestart() => restart.Cancel();

    public void ProcessorCrashed()
    {
        ProcessorFailed = true;
        restart.Cancel();
    }

    /// <summary>True once neither a restart nor shutdown has been requested — the only state in which a checkpoint
    /// may move. Each token is checked on its own: a linked token is not cancelled atomically with its sources.</summary>
    public bool MayCheckpoint => !Token.IsCancellationRequested && !Stopping.IsCancellationRequested;
}
