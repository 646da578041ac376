using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;

namespace SensorPipeline.Toolkit;

/// <summary>
/// What a <see cref="ChildProcess"/> printed: every stdout and stderr line in arrival order (kept in memory up to a
/// bound, appended to a log file when asked, echoed when asked), and the waits for a line. Apart from the process so
/// the process class keeps to starting, signalling and stopping.
/// </summary>
internal sealed class OutputCapture : IDisposable
{
    private readonly string _name;
    private readonly ChildProcessOptions _options;
    private readonly StreamWriter? _log;
    private readonly Lock _gate = new();
    private readonly List<(bool IsError, string Text)> _lines = [];
    private readonly List<(Regex Pattern, TaskCompletionSource<Match> Found)> _waiters = [];
    private Func<Regex, Exception>? _ended;
    private bool _logClosed;

    public OutputCapture(string name, ChildProcessOptions options)
    {
        _name = name;
        _options = options;
        if (options.LogPath is { } logPath)
        {
            _log = new StreamWriter(logPath, append: true) { AutoFlush = true };
        }
    }

    /// <summary>Records one line: the log, the echo, the stdout callback, the kept lines, and the waits it ends.</summary>
    public void OnLine(string? line, bool isError)
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
                Console.Error.WriteLine($"[{_name}] {line}");
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

    /// <summary>A line matching <paramref name="pattern"/>, printed before or during the wait; fails with what
    /// <see cref="End"/> was given once the output has ended, with a <see cref="TimeoutException"/> at the timeout.</summary>
    public async Task<Match> WaitForLineAsync(Regex pattern, TimeSpan timeout, CancellationToken cancellationToken)
    {
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

            if (_ended is not null)
            {
                throw _ended(pattern);
            }

            _waiters.Add((pattern, found));
        }

        try
        {
            return await found.Task.WaitAsync(timeout, cancellationToken);
        }
        catch (TimeoutException)
        {
            throw new TimeoutException($"{_name} printed no line matching /{pattern}/ within {timeout.TotalSeconds:N0} s.{Describe()}");
        }
        finally
        {
            lock (_gate)
            {
                _waiters.RemoveAll(w => w.Found == found);
            }
        }
    }

    /// <summary>No more lines will come: every wait fails with what <paramref name="ended"/> makes of its pattern.</summary>
    public void End(Func<Regex, Exception> ended)
    {
        lock (_gate)
        {
            _ended = ended;
            foreach (var (pattern, found) in _waiters)
            {
                found.TrySetException(ended(pattern));
            }

            _waiters.Clear();
        }
    }

    /// <summary>The last <paramref name="count"/> lines kept, oldest first.</summary>
    public IReadOnlyList<string> Tail(int count)
    {
        lock (_gate)
        {
            return _lines.Skip(Math.Max(0, _lines.Count - count)).Select(l => l.Text).ToArray();
        }
    }

    /// <summary>The output's last lines and where the rest is, for failure messages.</summary>
    public string Describe()
    {
        var tail = Tail(40);
        var text = new StringBuilder();
        if (_options.LogPath is not null)
        {
            text.Append(CultureInfo.InvariantCulture, $" Its output is in {_options.LogPath}.");
        }

        text.Append(tail.Count == 0 ? " It printed nothing." : "\n--- its last lines ---\n" + string.Join('\n', tail));
        return text.ToString();
    }

    /// <summary>The kept lines <paramref name="which"/> selects, one per line.</summary>
    public string Captured(Func<(bool IsError, string Text), bool> which)
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

    /// <summary>Closes the log file; later lines are only kept in memory.</summary>
    public void Dispose()
    {
        lock (_gate)
        {
            _log?.Dispose();
            _logClosed = true;
        }
    }
}
