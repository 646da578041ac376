using System.Collections.Concurrent;
using Microsoft.Extensions.Logging;

namespace SensorPipeline.Functions.Tests.Infrastructure;

/// <summary>Keeps every log entry (event name, level, formatted message) so an in-process test can assert what was said.</summary>
internal sealed class CapturingLogger<T> : ILogger<T>
{
    public ConcurrentQueue<(string? Event, LogLevel Level, string Message)> Entries { get; } = new();

    public IDisposable? BeginScope<TState>(TState state)
        where TState : notnull => null;

    public bool IsEnabled(LogLevel logLevel) => true;

    public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter) =>
        Entries.Enqueue((eventId.Name, logLevel, formatter(state, exception)));
}
