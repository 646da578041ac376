using System.Diagnostics;
using System.Text.RegularExpressions;

namespace SensorPipeline.Toolkit;

/// <summary>
/// A program started by the stack, a test or a benchmark: stdout and stderr are read line by line (<see
/// cref="OutputCapture"/>), a line can be awaited (a readiness line printed before the wait began counts), and the
/// process can be terminated, killed with -9, frozen and thawed. It leads its own process group, which
/// <see cref="ProcessGroupReaper"/> kills when this process ends, however it ends. Disposing stops it and every child
/// it started.
/// </summary>
public sealed partial class ChildProcess : IAsyncDisposable, IDisposable
{
    private readonly Process _process;
    private readonly ChildProcessOptions _options;
    private readonly OutputCapture _output;
    private readonly TaskCompletionSource<int> _exited = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private int _disposed;
    private int _groupLeader;

    private ChildProcess(ChildProcessOptions options, Process process)
    {
        _options = options;
        _process = process;
        Name = options.Name ?? Path.GetFileName(options.FileName);
        _output = new OutputCapture(Name, options);
    }

    public string Name { get; }

    public string? LogPath => _options.LogPath;

    public int Id => _process.Id;

    public bool HasExited => _process.HasExited;

    public int ExitCode => _process.ExitCode;

    /// <summary>Completes with the exit code once the process has exited and its last output lines are read,
    /// whoever ended it.</summary>
    public Task<int> Exited => _exited.Task;

    /// <summary>Everything captured from stdout and stderr, in arrival order.</summary>
    public string Output => _output.Captured(static _ => true);

    /// <summary>What was captured from stdout only.</summary>
    public string StandardOutput => _output.Captured(static line => !line.IsError);

    /// <summary>What was captured from stderr only.</summary>
    public string StandardError => _output.Captured(static line => line.IsError);

    /// <summary>The last <paramref name="count"/> captured lines, oldest first (what a crash report shows).</summary>
    public IReadOnlyList<string> LastLines(int count) => _output.Tail(count);

    /// <summary>Starts the program; output is read from the start, so no line is lost.</summary>
    public static ChildProcess Start(ChildProcessOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var process = new Process { StartInfo = StartInfo(options), EnableRaisingEvents = true };
        var child = new ChildProcess(options, process);
        process.OutputDataReceived += (_, e) => child._output.OnLine(e.Data, isError: false);
        process.ErrorDataReceived += (_, e) => child._output.OnLine(e.Data, isError: true);
        process.Exited += (_, _) => _ = child.OnExitedAsync();
        try
        {
            RequireProgram(options.FileName);
            process.Start();
        }
        catch (Exception e) when (e is System.ComponentModel.Win32Exception or InvalidOperationException or FileNotFoundException)
        {
            process.Dispose();
            child._output.Dispose();
            throw new InvalidOperationException($"{child.Name}: cannot start {options.FileName}: {e.Message}", e);
        }

        child._groupLeader = process.Id;
        ProcessGroupReaper.Add(process.Id);
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        return child;
    }

    /// <summary>The program run through <c>setsid</c> (util-linux), which makes it the leader of a new process group
    /// and session and then executes it in place: same pid, and the terminal's Ctrl+C reaches only the caller, which
    /// stops its children in order.</summary>
    private static ProcessStartInfo StartInfo(ChildProcessOptions options)
    {
        var info = new ProcessStartInfo("setsid")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            WorkingDirectory = options.WorkingDirectory ?? Environment.CurrentDirectory,
        };
        // A relative path means this process's directory, as Process.Start reads it, not the child's working directory.
        info.ArgumentList.Add(options.FileName.Contains('/', StringComparison.Ordinal) ? Path.GetFullPath(options.FileName) : options.FileName);
        foreach (var argument in options.Arguments)
        {
            info.ArgumentList.Add(argument);
        }

        foreach (var (key, value) in options.Environment)
        {
            if (value is null)
            {
                info.Environment.Remove(key);
            }
            else
            {
                info.Environment[key] = value;
            }
        }

        return info;
    }

    /// <summary>Throws when <paramref name="fileName"/> is neither an existing file nor a program on PATH: through
    /// setsid a missing program would otherwise start, then exit with setsid's own message.</summary>
    private static void RequireProgram(string fileName)
    {
        if (fileName.Contains('/', StringComparison.Ordinal))
        {
            if (!File.Exists(fileName))
            {
                throw new FileNotFoundException($"no such file: {fileName}", fileName);
            }

            return;
        }

        if (FindOnPath(fileName) is null)
        {
            throw new FileNotFoundException($"{fileName} is not on PATH", fileName);
        }
    }

    /// <summary>The full path of <paramref name="fileName"/> in the first directory of PATH that holds it, or null.</summary>
    public static string? FindOnPath(string fileName) =>
        (Environment.GetEnvironmentVariable("PATH") ?? string.Empty).Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries)
            .Select(dir => Path.Combine(dir, fileName)).FirstOrDefault(File.Exists);

    /// <summary>Starts a program and waits for its exit: for commands run to completion (a build, <c>devhost status</c>,
    /// a start-up failure). Throws <see cref="TimeoutException"/> (after killing it) if it runs longer.</summary>
    public static async Task<ChildProcess> RunAsync(ChildProcessOptions options, TimeSpan timeout, CancellationToken cancellationToken = default)
    {
        var child = Start(options);
        try
        {
            await child.WaitForExitAsync(timeout, cancellationToken);
            return child;
        }
        catch
        {
            await child.DisposeAsync();
            throw;
        }
    }

    /// <summary>Waits for an output line (stdout or stderr) matching <paramref name="pattern"/>, including lines already
    /// printed. Throws <see cref="ChildProcessExitedException"/> if the process exits first, <see cref="TimeoutException"/>
    /// when time runs out; both carry the output so far.</summary>
    public Task<Match> WaitForLineAsync(Regex pattern, TimeSpan timeout, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(pattern);
        return _output.WaitForLineAsync(pattern, timeout, cancellationToken);
    }

    /// <inheritdoc cref="WaitForLineAsync(Regex, TimeSpan, CancellationToken)"/>
    public Task<Match> WaitForLineAsync(string pattern, TimeSpan timeout, CancellationToken cancellationToken = default) =>
        WaitForLineAsync(new Regex(pattern, RegexOptions.CultureInvariant), timeout, cancellationToken);

    /// <summary>Waits for a line announcing an address: <paramref name="pattern"/> has a group named <c>url</c>.</summary>
    public async Task<Uri> WaitForUrlAsync(Regex pattern, TimeSpan timeout, CancellationToken cancellationToken = default)
    {
        var match = await WaitForLineAsync(pattern, timeout, cancellationToken);
        return new Uri(match.Groups["url"].Value.Trim());
    }

    /// <summary>Waits for the exit and for the last output lines; returns the exit code. Throws
    /// <see cref="TimeoutException"/> with the output if it runs longer (the process keeps running until disposed).</summary>
    public async Task<int> WaitForExitAsync(TimeSpan timeout, CancellationToken cancellationToken = default)
    {
        try
        {
            await _process.WaitForExitAsync(cancellationToken).WaitAsync(timeout, cancellationToken);
        }
        catch (TimeoutException)
        {
            throw new TimeoutException($"{Name} did not exit within {timeout.TotalSeconds:N0} s.{_output.Describe()}");
        }

        return _process.ExitCode;
    }

    /// <summary>Waits for the exit, however long it takes; returns the exit code.</summary>
    public async Task<int> WaitForExitAsync(CancellationToken cancellationToken)
    {
        await _process.WaitForExitAsync(cancellationToken);
        return _process.ExitCode;
    }

    private async Task OnExitedAsync()
    {
        try
        {
            // The last lines may still be in the pipe when the exit is reported: read them before failing waiters.
            await _process.WaitForExitAsync().WaitAsync(TimeSpan.FromSeconds(5));
        }
        catch (Exception e) when (e is TimeoutException or InvalidOperationException)
        {
            // A grandchild holds the pipe open; fail the waiters with what arrived.
        }

        var exitCode = SafeExitCode();
        _output.End(pattern => new ChildProcessExitedException(
            $"{Name} exited (code {exitCode}) before printing /{pattern}/.{_output.Describe()}", exitCode, Output));
        _exited.TrySetResult(exitCode ?? -1);
    }

    private int? SafeExitCode()
    {
        try
        {
            return _process.HasExited ? _process.ExitCode : null;
        }
        catch (InvalidOperationException)
        {
            return null;
        }
    }
}
