namespace SensorPipeline.Functions.Tests.Infrastructure;

/// <summary>The handler as the tests invoke it: a real process (<see cref="CustomHandlerProcess"/>) or in-process
/// (<see cref="InProcessHandler"/>), reached through an HTTP client on its address.</summary>
internal interface IHandlerUnderTest
{
    /// <summary>A client whose base address is the handler's.</summary>
    HttpClient Http { get; }
}
