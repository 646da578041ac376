namespace SensorPipeline.Toolkit;

/// <summary>How to start a <see cref="ChildProcess"/>.</summary>
public sealed record ChildProcessOptions
{
    /// <summary>The program (a path, or a name looked up on PATH: <c>dotnet</c>, <c>node</c>, <c>bash</c>).</summary>
    public required string FileName { get; init; }

    /// <summary>Arguments, passed one by one (no shell quoting). Default none.</summary>
    public IReadOnlyList<string> Arguments { get; init; } = [];

    /// <summary>The name in messages and in the <see cref="Echo"/> prefix. Default the file name.</summary>
    public string? Name { get; init; }

    /// <summary>Variables added to the inherited environment; a null value removes an inherited one. Default none.</summary>
    public IReadOnlyDictionary<string, string?> Environment { get; init; } = new Dictionary<string, string?>();

    /// <summary>The working directory. Default the current directory.</summary>
    public string? WorkingDirectory { get; init; }

    /// <summary>A file every output line is appended to (stdout and stderr, in arrival order). Default none.</summary>
    public string? LogPath { get; init; }

    /// <summary>Also write every line to this process's stderr as <c>[name] line</c>. Default false.</summary>
    public bool Echo { get; init; }

    /// <summary>Called with every stdout line as it arrives, in order, on the output reader's thread (keep it short):
    /// for a caller that tracks state the lines describe and awaits conditions on it. Default none.</summary>
    public Action<string>? StandardOutputLine { get; init; }

    /// <summary>How many lines are kept in memory for <see cref="ChildProcess.Output"/> and for line waits that start after
    /// the line was printed; later lines only go to <see cref="LogPath"/>. Default unbounded; a long-running chatty
    /// process (a stand-in printing a trace per request in a benchmark) sets a bound.</summary>
    public int MaxCapturedLines { get; init; } = int.MaxValue;

    /// <summary>On dispose, how long SIGTERM gets before the whole tree is killed. Zero (the default) kills at once;
    /// devhost given a few seconds stops its handler itself.</summary>
    public TimeSpan StopGracePeriod { get; init; }
}
