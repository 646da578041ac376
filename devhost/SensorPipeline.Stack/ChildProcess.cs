using System.Diagnostics;
using System.Text.RegularExpressions;

namespace SensorPipeline.Stack;

/// <summary>
/// A program the stack started: its output goes to a log file (and optionally the console), a line can be awaited,
/// and disposing stops it — SIGTERM first so devhost stops its handler, then a kill of the whole tree.
/// </summary>
public sealed class ChildProcess : IAsyncDisposable
{
    private readonly Process _process;
    private readonly StreamWriter _log;
    private readonly Lock _gate = new();
    private readonly List<(Regex Pattern, TaskCompletionSource<Match> Found)> _waiters = [];
    private readonly bool _echo;

    private ChildProcess(string name, Process process, string logPath, bool echo)
    {
        Name = name;
        _process = process;
        _echo = echo;
        LogPath = logPath;
        _log = new StreamWriter(logPath, append: true) { AutoFlush = true };
    }

    public string Name { get; }

    public string LogPath { get; }

    public int Id => _process.Id;

    public bool HasExited => _process.HasExited;

    public int ExitCode => _process.ExitCode;

    /// <summary>Starts <paramref name="fileName"/> with arguments and extra environment variables.</summary>
    public static ChildProcess Start(string name, string fileName, IEnumerable<string> arguments, IReadOnlyDictionary<string, string> environment,
        string logPath, bool echo = false, string? workingDirectory = null)
    {
        var info = new ProcessStartInfo(fileName)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            WorkingDirectory = workingDirectory ?? Environment.CurrentDirectory,
        };
        foreach (var argument in arguments)
        {
            info.ArgumentList.Add(argument);
        }

        foreach (var (key, value) in environment)
        {
            info.Environment[key] = value;
        }

        var process = new Process { StartInfo = info, EnableRaisingEvents = true };
        var child = new ChildProcess(name, process, logPath, echo);
        process.OutputDataReceived += (_, e) => child.OnLine(e.Data);
        process.ErrorDataReceived += (_, e) => child.OnLine(e.Data);
        process.Exited += (_, _) => child.OnExit();
        if (!process.Start())
        {
            throw new InvalidOperationException($"{name}: could not start {fileName}");
        }

        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        return child;
    }

    /// <summary>Waits for an output line matching <paramref name="pattern"/>; fails if the process exits first or time runs out.</summary>
    public async Task<Match> WaitForLineAsync(string pattern, TimeSpan timeout, CancellationToken cancellationToken)
    {
        var waiter = (new Regex(pattern, RegexOptions.CultureInvariant), new TaskCompletionSource<Match>(TaskCreationOptions.RunContinuationsAsynchronously));
        lock (_gate)
        {
            _waiters.Add(waiter);
        }

        if (_process.HasExited)
        {
            OnExit();
        }

        try
        {
            return await waiter.Item2.Task.WaitAsync(timeout, cancellationToken);
        }
        catch (TimeoutException)
        {
            throw new TimeoutException($"{Name} printed no line matching /{pattern}/ within {timeout.TotalSeconds:N0} s; its output is in {LogPath}");
        }
    }

    /// <summary>Waits for the process to exit and returns its exit code.</summary>
    public async Task<int> WaitForExitAsync(CancellationToken cancellationToken)
    {
        await _process.WaitForExitAsync(cancellationToken);
        return _process.ExitCode;
    }

    /// <summary>Sends a POSIX signal (SIGSTOP/SIGCONT freeze and thaw the Cosmos DB emulator in tests).</summary>
    public void Signal(PosixSignalKind signal)
    {
        var number = signal switch
        {
            PosixSignalKind.Terminate => 15,
            PosixSignalKind.Stop => 19,
            PosixSignalKind.Continue => 18,
            _ => throw new ArgumentOutOfRangeException(nameof(signal)),
        };
        if (NativeMethods.Kill(_process.Id, number) != 0)
        {
            throw new InvalidOperationException($"{Name}: kill({_process.Id}, {number}) failed");
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            try
            {
                Signal(PosixSignalKind.Continue); // a frozen process cannot handle SIGTERM
                Signal(PosixSignalKind.Terminate);
                await _process.WaitForExitAsync().WaitAsync(TimeSpan.FromSeconds(10));
            }
            catch (Exception e) when (e is TimeoutException or InvalidOperationException)
            {
                _process.Kill(entireProcessTree: true);
                await _process.WaitForExitAsync();
            }
        }

        _process.Dispose();
        await _log.DisposeAsync();
    }

    private void OnLine(string? line)
    {
        if (line is null)
        {
            return;
        }

        lock (_gate)
        {
            _log.WriteLine(line);
            if (_echo)
            {
                Console.Error.WriteLine($"[{Name}] {line}");
            }

            for (var i = _waiters.Count - 1; i >= 0; i--)
            {
                var match = _waiters[i].Pattern.Match(line);
                if (match.Success)
                {
                    _waiters[i].Found.TrySetResult(match);
                    _waiters.RemoveAt(i);
                }
            }
        }
    }

    private void OnExit()
    {
        lock (_gate)
        {
            foreach (var (pattern, found) in _waiters)
            {
                found.TrySetException(new InvalidOperationException($"{Name} exited (code {SafeExitCode()}) before printing /{pattern}/; its output is in {LogPath}"));
            }

            _waiters.Clear();
        }
    }

    private string SafeExitCode()
    {
        try
        {
            return _process.ExitCode.ToString(System.Globalization.CultureInfo.InvariantCulture);
        }
        catch (InvalidOperationException)
        {
            return "?";
        }
    }
}

/// <summary>The signals the stack sends.</summary>
public enum PosixSignalKind
{
    Terminate,
    Stop,
    Continue,
}

internal static partial class NativeMethods
{
    [System.Runtime.InteropServices.LibraryImport("libc", EntryPoint = "kill", SetLastError = true)]
    internal static partial int Kill(int pid, int signal);
}
