namespace SensorPipeline.Toolkit;

/// <summary>
/// Node's built-in test runner (<c>node --test SCRIPT</c>) over a test script of the repository, run from the
/// repository's root so the script finds the npm packages pinned there: how the .NET tests run the official
/// JavaScript SDKs against the emulators.
/// </summary>
public static class NodeTestRun
{
    /// <summary>Runs <paramref name="script"/> (relative to the root) to its exit with <paramref name="environment"/>
    /// added and the runner's <paramref name="nodeOptions"/> (e.g. <c>--test-force-exit</c>); the caller checks the exit
    /// code and the runner's summary (<c># pass N</c>) in the output.</summary>
    /// <exception cref="TimeoutException">It ran longer than <paramref name="timeout"/> (it is killed).</exception>
    public static Task<ChildProcess> RunAsync(string script, IReadOnlyDictionary<string, string?> environment, TimeSpan timeout,
        IReadOnlyList<string>? nodeOptions = null, CancellationToken cancellationToken = default)
    {
        var root = RepoLayout.Current.Root;
        return ChildProcess.RunAsync(new ChildProcessOptions
        {
            Name = "node " + Path.GetFileName(script),
            FileName = "node",
            Arguments = ["--test", .. nodeOptions ?? [], Path.Combine(root, script)],
            Environment = environment,
            WorkingDirectory = root,
        }, timeout, cancellationToken);
    }
}
