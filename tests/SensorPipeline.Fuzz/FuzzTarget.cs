namespace SensorPipeline.Fuzz;

/// <summary>
/// One parser under fuzzing: <see cref="Run"/> feeds it one input and lets only the parser's documented refusal pass.
/// Anything else — another exception type, a broken invariant (<see cref="InvariantException"/>) — escapes, which afl++
/// records as a crash and a replay test reports as a failure.
/// </summary>
/// <param name="Name">The target's name on the command line and its corpus folder.</param>
/// <param name="Covers">What it drives, for <c>list</c> and the README.</param>
/// <param name="Execute">Parses one input.</param>
/// <param name="Refusals">The documented error types: an input the parser refuses with one of them is handled.</param>
internal sealed record FuzzTarget(string Name, string Covers, Action<byte[]> Execute, params Type[] Refusals)
{
    /// <summary>Runs one input; true when it parsed, false when it was refused with a documented error.</summary>
    public bool Run(byte[] input)
    {
        try
        {
            Execute(input);
            return true;
        }
        catch (Exception e) when (IsRefusal(e))
        {
            return false;
        }
    }

    private bool IsRefusal(Exception e) => Array.Exists(Refusals, type => type.IsInstanceOfType(e));
}

/// <summary>A parser accepted an input but broke a property every accepted input must keep (e.g. a document it
/// rendered is not JSON): a bug even though nothing threw.</summary>
internal sealed class InvariantException(string message) : Exception(message);
