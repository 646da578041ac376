using System.Text.RegularExpressions;

namespace SensorPipeline.Functions.Tests.Infrastructure;

/// <summary>The handler as the tests invoke it: a real process (<see cref="CustomHandlerProcess"/>) or in-process
/// (<see cref="InProcessHandler"/>), reached through an HTTP client on its address, its log read as text.</summary>
public interface IHandlerUnderTest : IDisposable
{
    /// <summary>A client whose base address is the handler's.</summary>
    HttpClient Http { get; }

    /// <summary>Everything the handler logged so far, in its console format.</summary>
    string Output { get; }

    /// <summary>Waits for a logged line matching <paramref name="pattern"/> (lines already logged included).</summary>
    Task<Match> WaitForLineAsync(string pattern, TimeSpan timeout);
}
