namespace SensorPipeline.FunctionsHost.Status;

/// <summary>Holds a function's listeners between batches while paused (to build a backlog in tests and demos).
/// A batch already being invoked finishes; the next one waits.</summary>
internal sealed class PauseGate
{
    private readonly Lock _lock = new();
    private TaskCompletionSource? _resumed;

    public bool IsPaused
    {
        get
        {
            lock (_lock)
            {
                return _resumed is not null;
            }
        }
    }

    public void Pause()
    {
        lock (_lock)
        {
            _resumed ??= new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        }
    }

    public void Resume()
    {
        TaskCompletionSource? resumed;
        lock (_lock)
        {
            resumed = _resumed;
            _resumed = null;
        }

        resumed?.TrySetResult();
    }

    public Task WaitAsync(CancellationToken cancellationToken)
    {
        lock (_lock)
        {
            return _resumed is null ? Task.CompletedTask : _resumed.Task.WaitAsync(cancellationToken);
        }
    }
}
