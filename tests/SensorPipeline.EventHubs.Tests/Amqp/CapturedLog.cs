using System.Collections.Concurrent;
using Microsoft.Extensions.Logging;

namespace SensorPipeline.EventHubs.Tests.Amqp;

/// <summary>An in-process endpoint's log, kept as its entries (event id and formatted message), so a test counts
/// the lines a client's behaviour costs; a line can be awaited, one logged before the wait began included.</summary>
internal sealed class CapturedLog : ILoggerProvider, ILoggerFactory
{
    private readonly ConcurrentQueue<(int EventId, string Message)> _entries = new();
    private readonly ConcurrentQueue<(int EventId, TaskCompletionSource Seen)> _waiters = new();

    public IReadOnlyList<(int EventId, string Message)> Entries => [.. _entries];

    public ILogger CreateLogger(string categoryName) => new Writer(this);

    public void AddProvider(ILoggerProvider provider) => throw new NotSupportedException();

    /// <summary>Waits for an entry with <paramref name="eventId"/>.</summary>
    public async Task WaitForAsync(int eventId, TimeSpan timeout)
    {
        var seen = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        _waiters.Enqueue((eventId, seen));
        if (_entries.Any(e => e.EventId == eventId))
        {
            seen.TrySetResult();
        }

        try
        {
            await seen.Task.WaitAsync(timeout);
        }
        catch (TimeoutException)
        {
            throw new TimeoutException($"no entry with event id {eventId} within {timeout.TotalSeconds:N0} s; logged:\n" + string.Join("\n", Entries));
        }
    }

    public void Dispose()
    {
    }

    private void Add(int eventId, string message)
    {
        _entries.Enqueue((eventId, message));
        foreach (var (id, seen) in _waiters)
        {
            if (id == eventId)
            {
                seen.TrySetResult();
            }
        }
    }

    private sealed class Writer(CapturedLog log) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state) where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => logLevel >= LogLevel.Information;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
        {
            if (IsEnabled(logLevel))
            {
                log.Add(eventId.Id, formatter(state, exception));
            }
        }
    }
}
