using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;
using Microsoft.Extensions.Logging;

namespace SensorPipeline.Functions.Tests.Infrastructure;

/// <summary>
/// The in-process handler's log, written as its process writes it to the console (the simple format:
/// <c>fail: Category[id]</c>, then the message indented), so a test reads <see cref="InProcessHandler"/>'s output as it
/// reads <see cref="CustomHandlerProcess"/>'s. A line can be awaited; one written before the wait began counts.
/// </summary>
internal sealed class HandlerLog : ILoggerProvider
{
    private const string Indent = "      ";
    private readonly Lock _gate = new();
    private readonly StringBuilder _text = new();
    private readonly List<string> _lines = [];
    private readonly List<(Regex Pattern, TaskCompletionSource<Match> Found)> _waiters = [];

    /// <summary>Everything logged so far.</summary>
    public string Text
    {
        get
        {
            lock (_gate)
            {
                return _text.ToString();
            }
        }
    }

    public ILogger CreateLogger(string categoryName) => new Writer(this, categoryName);

    /// <summary>Waits for a line matching <paramref name="pattern"/> (lines already logged included).</summary>
    public async Task<Match> WaitForLineAsync(string pattern, TimeSpan timeout)
    {
        var regex = new Regex(pattern, RegexOptions.CultureInvariant);
        var found = new TaskCompletionSource<Match>(TaskCreationOptions.RunContinuationsAsynchronously);
        lock (_gate)
        {
            foreach (var line in _lines)
            {
                if (regex.Match(line) is { Success: true } match)
                {
                    return match;
                }
            }

            _waiters.Add((regex, found));
        }

        try
        {
            return await found.Task.WaitAsync(timeout);
        }
        catch (TimeoutException)
        {
            throw new TimeoutException($"the in-process handler logged no line matching /{pattern}/ within {timeout.TotalSeconds:N0} s\n{Text}");
        }
        finally
        {
            lock (_gate)
            {
                _waiters.RemoveAll(w => w.Found == found);
            }
        }
    }

    public void Dispose()
    {
    }

    private void Append(LogLevel level, string category, EventId eventId, string message, Exception? exception)
    {
        var entry = new StringBuilder()
            .Append(CultureInfo.InvariantCulture, $"{Label(level)}: {category}[{eventId.Id}]\n")
            .Append(Indent).Append(message.Replace("\n", "\n" + Indent, StringComparison.Ordinal)).Append('\n');
        if (exception is not null)
        {
            entry.Append(Indent).Append(exception.ToString().Replace("\n", "\n" + Indent, StringComparison.Ordinal)).Append('\n');
        }

        var text = entry.ToString();
        lock (_gate)
        {
            _text.Append(text);
            foreach (var line in text.Split('\n', StringSplitOptions.RemoveEmptyEntries))
            {
                _lines.Add(line);
                foreach (var (pattern, found) in _waiters)
                {
                    if (pattern.Match(line) is { Success: true } match)
                    {
                        found.TrySetResult(match);
                    }
                }
            }
        }
    }

    private static string Label(LogLevel level) => level switch
    {
        LogLevel.Trace => "trce",
        LogLevel.Debug => "dbug",
        LogLevel.Information => "info",
        LogLevel.Warning => "warn",
        LogLevel.Error => "fail",
        _ => "crit",
    };

    private sealed class Writer(HandlerLog log, string category) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => logLevel != LogLevel.None;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
        {
            ArgumentNullException.ThrowIfNull(formatter);
            log.Append(logLevel, category, eventId, formatter(state, exception), exception);
        }
    }
}
