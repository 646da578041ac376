namespace SensorPipeline.Toolkit;

/// <summary>The signals <see cref="ChildProcess.Signal"/> sends.</summary>
public enum PosixSignalKind
{
    /// <summary>SIGTERM: shut down.</summary>
    Terminate,

    /// <summary>SIGINT: what Ctrl+C sends.</summary>
    Interrupt,

    /// <summary>SIGKILL: stop now, no code runs.</summary>
    Kill,

    /// <summary>SIGSTOP: freeze.</summary>
    Stop,

    /// <summary>SIGCONT: thaw.</summary>
    Continue,
}

/// <summary>The process exited before printing the awaited line.</summary>
public sealed class ChildProcessExitedException(string message, int? exitCode, string output) : InvalidOperationException(message)
{
    /// <summary>The exit code, when known.</summary>
    public int? ExitCode { get; } = exitCode;

    /// <summary>Everything it printed.</summary>
    public string Output { get; } = output;
}
