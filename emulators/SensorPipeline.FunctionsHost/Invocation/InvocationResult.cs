namespace SensorPipeline.FunctionsHost.Invocation;

/// <summary>A successful invocation: the events per output binding (only bindings with a non-null value) and the
/// handler's Logs.</summary>
internal sealed record InvocationResult(IReadOnlyList<(Config.OutputBinding Binding, List<ReadOnlyMemory<byte>> Events)> Outputs, IReadOnlyList<string> Logs);

/// <summary>The handler answered in a way the host treats as a failed invocation (non-2xx, a body that is not a JSON
/// invocation result). Its outputs are not sent.</summary>
public sealed class InvocationFailedException : Exception
{
    public InvocationFailedException()
    {
    }

    public InvocationFailedException(string message)
        : base(message)
    {
    }

    public InvocationFailedException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
