using System.Diagnostics;
using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;

namespace SensorPipeline.Toolkit;

/// <summary>
/// A program started by the stack, a test or a benchmark: stdout and stderr are read line by line (kept in memory, and
/// appended to a log file when asked), a line can be awaited (a readiness line printed before the wait began counts),
/// and the process can be terminated, killed with -9, frozen and thawed. Disposing stops it and every child it started.
/// </summary>
public sealed partial class ChildProcess : IAsyncDisposable, IDisposable
{
    private readonly Process _process;
    private readonly ChildProcessOptions _options;
    private readonly StreamWriter? _log;
    private readonly Lock _gate = new();
    private readonly List<(bool IsError, string Text)> _lines = [];
    private readonly List<(Regex Pattern, TaskCompletionSource<Match> Found)> _waiters = [];
    private bool _outputEnded;
    private bool _logClosed;
    private int _disposed;

    private ChildProcess(ChildProcessOptions options, Process process)
    {
        _options = options;
        _process = process;
        Name = options.Name ?? Path.GetFileName(options.FileName);
        if (options.LogPath is { } logPath)
        {
            _log = new StreamWriter(logPath, append: true) { AutoFlush = true };
        }
    }

    public string Name { get; }

    public string? LogPath => _options.LogPath;

    public int Id => _process.Id;

    public bool HasExited => _process.HasExited;

    public int ExitCode => _process.ExitCode;

    /// <summary>Everything captured from stdout and stderr, in arrival order.</summary>
    public string Output => Captured(static _ => true);

    /// <summary>What was captured from stdout only.</summary>
    public string StandardOutput => Captured(static line => !line.IsError);

    /// <summary>What was captured from stderr only.</summary>
    public string StandardError => Captured(static line => line.IsError);

    /// <summary>Starts the program; output is read from the start, so no line is lost.</summary>
    public static ChildProcess Start(ChildProcessOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var info = new ProcessStartInfo(options.FileName)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            WorkingDirectory = options.WorkingDirectory ?? Environment.CurrentDirectory,
        };
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

        var process = new Process { StartInfo = info, EnableRaisingEvents = true };
        var child = new ChildProcess(options, process);
        process.OutputDataReceived += (_, e) => child.OnLine(e.Data, isError: false);
        process.ErrorDataReceived += (_, e) => child.OnLine(e.Data, isError: true);
        process.Exited += (_, _) => _ = child.OnExitedAsync();
        try
        {
            process.Start();
        }
        catch (Exception e) when (e is System.ComponentModel.Win32Exception or InvalidOperationException)
        {
            process.Dispose();
            child._log?.Dispose();
            throw new InvalidOperationException($"{child.Name}: cannot start {options.FileName}: {e.Message}", e);
        }

        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        return child;
    }

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
    public async Task<Match> WaitForLineAsync(Regex pattern, TimeSpan timeout, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(pattern);
        var found = new TaskCompletionSource<Match>(TaskCreationOptions.RunContinuationsAsynchronously);
        lock (_gate)
        {
            foreach (var (_, text) in _lines)
            {
                if (pattern.Match(text) is { Success: true } match)
                {
                    return match;
                }
            }

            if (_outputEnded)
            {
                throw Exited(pattern);
            }

            _waiters.Add((pattern, found));
        }

        try
        {
            return await found.Task.WaitAsync(timeout, cancellationToken);
        }
        catch (TimeoutException)
        {
            throw new TimeoutException($"{Name} printed no line matching /{pattern}/ within {timeout.TotalSeconds:N0} s.{Describe()}");
        }
        finally
        {
            lock (_gate)
            {
                _waiters.RemoveAll(w => w.Found == found);
            }
        }
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
            throw new TimeoutException($"{Name} did not exit within {timeout.TotalSeconds:N0} s.{Describe()}");
        }

        return _process.ExitCode;
    }

    /// <summary>Waits for the exit, however long it takes; returns the exit code.</summary>
    public async Task<int> WaitForExitAsync(CancellationToken cancellationToken)
    {
        await _process.WaitForExitAsync(cancellationToken);
        return _process.ExitCode;
    }

    private void OnLine(string? line, bool isError)
    {
        if (line is null)
        {
            return;
        }

        lock (_gate)
        {
            if (!_logClosed)
            {
                _log?.WriteLine(line);
            }

            if (_options.Echo)
            {
                Console.Error.WriteLine($"[{Name}] {line}");
            }

            if (!isError)
            {
                _options.StandardOutputLine?.Invoke(line);
            }

            if (_lines.Count < _options.MaxCapturedLines)
            {
                _lines.Add((isError, line));
            }

            for (var i = _waiters.Count - 1; i >= 0; i--)
            {
                if (_waiters[i].Pattern.Match(line) is { Success: true } match)
                {
                    _waiters[i].Found.TrySetResult(match);
                    _waiters.RemoveAt(i);
                }
            }
        }
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

        lock (_gate)
        {
            _outputEnded = true;
            foreach (var (pattern, found) in _waiters)
            {
                found.TrySetException(Exited(pattern));
            }

            _waiters.Clear();
        }
    }

    private ChildProcessExitedException Exited(Regex pattern) =>
        new($"{Name} exited (code {SafeExitCode()}) before printing /{pattern}/.{Describe()}", SafeExitCode(), Output);

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

    /// <summary>The output's last lines and where the rest is, for failure messages.</summary>
    private string Describe()
    {
        string[] tail;
        lock (_gate)
        {
            tail = _lines.Skip(Math.Max(0, _lines.Count - 40)).Select(l => l.Text).ToArray();
        }

        var text = new StringBuilder();
        if (LogPath is not null)
        {
            text.Append(CultureInfo.InvariantCulture, $" Its output is in {LogPath}.");
        }

        text.Append(tail.Length == 0 ? " It printed nothing." : "\n--- its last lines ---\n" + string.Join('\n', tail));
        return text.ToString();
    }

    private string Captured(Func<(bool IsError, string Text), bool> which)
    {
        lock (_gate)
        {
            var text = new StringBuilder();
            foreach (var line in _lines.Where(which))
            {
                text.AppendLine(line.Text);
            }

            return text.ToString();
        }
    }
}
