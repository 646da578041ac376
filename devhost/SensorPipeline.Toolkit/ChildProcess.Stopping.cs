using System.Runtime.InteropServices;

namespace SensorPipeline.Toolkit;

/// <summary>Signals, termination, kill -9 and disposal.</summary>
public sealed partial class ChildProcess
{
    /// <summary>SIGSTOP: the process keeps its memory and sockets but runs no code and answers nothing (a stalled
    /// dependency, for chaos and outage tests).</summary>
    public void Freeze() => Signal(PosixSignalKind.Stop);

    /// <summary>SIGCONT: a frozen process carries on where it stopped.</summary>
    public void Thaw() => Signal(PosixSignalKind.Continue);

    /// <summary>Sends a POSIX signal to the process (not to its children).</summary>
    public void Signal(PosixSignalKind signal)
    {
        var number = signal switch
        {
            PosixSignalKind.Terminate => 15,
            PosixSignalKind.Interrupt => 2,
            PosixSignalKind.Kill => 9,
            PosixSignalKind.Stop => 19,
            PosixSignalKind.Continue => 18,
            _ => throw new ArgumentOutOfRangeException(nameof(signal)),
        };
        if (Kill(_process.Id, number) != 0)
        {
            throw new InvalidOperationException($"{Name}: kill({_process.Id}, {number}) failed: errno {Marshal.GetLastPInvokeError()}");
        }
    }

    /// <summary>SIGTERM (what Ctrl+C or <c>kill</c> sends; a frozen process is thawed first): the program shuts down
    /// its own way. Returns its exit code; throws <see cref="TimeoutException"/> if it is still running after
    /// <paramref name="timeout"/>.</summary>
    public async Task<int> TerminateAsync(TimeSpan timeout, CancellationToken cancellationToken = default)
    {
        if (!_process.HasExited)
        {
            Signal(PosixSignalKind.Continue);
            Signal(PosixSignalKind.Terminate);
        }

        return await WaitForExitAsync(timeout, cancellationToken);
    }

    /// <summary>kill -9: no shutdown code runs, nothing is flushed by the process. With
    /// <paramref name="entireProcessTree"/> false its children (devhost's handler) outlive it, as after a crash.</summary>
    public async Task KillAsync(bool entireProcessTree = true)
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree);
        }

        await _process.WaitForExitAsync();
    }

    /// <summary>Stops the process and its children: SIGTERM with <see cref="ChildProcessOptions.StopGracePeriod"/> to
    /// act on it when one is set, then kill -9 of the whole tree.</summary>
    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        try
        {
            if (AskToTerminate())
            {
                await _process.WaitForExitAsync().WaitAsync(_options.StopGracePeriod).ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
            }

            KillTree();

            // Bounded: a grandchild that inherited the output pipe must not hang the caller's clean-up.
            await _process.WaitForExitAsync().WaitAsync(TimeSpan.FromSeconds(30)).ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
        }
        finally
        {
            Release();
        }
    }

    /// <summary>The same as <see cref="DisposeAsync"/>, blocking, for owners that dispose synchronously.</summary>
    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        try
        {
            if (AskToTerminate())
            {
                _process.WaitForExit(_options.StopGracePeriod);
            }

            KillTree();
            _process.WaitForExit(TimeSpan.FromSeconds(30));
        }
        finally
        {
            Release();
        }
    }

    /// <summary>SIGTERM (after SIGCONT: a frozen process must run to act on it) when a grace period is set and the
    /// process still runs; whether it was asked, so the caller waits the grace period.</summary>
    private bool AskToTerminate()
    {
        if (_process.HasExited || _options.StopGracePeriod <= TimeSpan.Zero)
        {
            return false;
        }

        TrySignal(PosixSignalKind.Continue);
        TrySignal(PosixSignalKind.Terminate);
        return true;
    }

    private void KillTree()
    {
        if (!_process.HasExited)
        {
            TrySignal(PosixSignalKind.Continue); // frozen: killed all the same, but its children may be waiting on it
            _process.Kill(entireProcessTree: true);
        }
    }

    /// <summary>kill -9 of the process's whole group: it, and every process it started that stayed in its group,
    /// including those it orphaned by dying first (devhost's handler after devhost was killed).</summary>
    public void KillProcessGroup() => Kill(-_groupLeader, 9);

    private void Release()
    {
        _process.Dispose();
        _output.Dispose();

        // A group with no process left is forgotten; one that still holds an orphan stays the reaper's to kill.
        if (Kill(-_groupLeader, 0) != 0)
        {
            ProcessGroupReaper.Remove(_groupLeader);
        }
    }

    private void TrySignal(PosixSignalKind signal)
    {
        try
        {
            Signal(signal);
        }
        catch (InvalidOperationException)
        {
            // Exited in between.
        }
    }

    [LibraryImport("libc", EntryPoint = "kill", SetLastError = true)]
    private static partial int Kill(int pid, int signal);
}
