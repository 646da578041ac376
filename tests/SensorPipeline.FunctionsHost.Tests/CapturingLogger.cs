using System.Collections.Concurrent;
using Microsoft.Extensions.Logging;

namespace SensorPipeline.FunctionsHost.Tests;

/// <summary>Keeps every log entry (event id, level, formatted message) so a test can assert what was said.</summary>
internal sealed class CapturingLogger : ILogger
{
    public ConcurrentQueue<(EventId Id, LogLevel Level, string Message)> Entries { get; } = new();

    public IDisposable? BeginScope<TState>(TState state)
        where TState : notnull => null;

    public bool IsEnabled(LogLevel logLevel) => true;

    public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter) =>
        Entries.Enqueue((eventId, logLevel, formatter(state, exception)));
}
