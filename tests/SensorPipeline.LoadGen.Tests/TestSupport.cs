namespace SensorPipeline.LoadGen.Tests;

/// <summary>A clock the test moves by hand: timestamps and "now" advance only when told.</summary>
internal sealed class ManualClock : TimeProvider
{
    private long _ticks;

    public static readonly DateTimeOffset Start = Builders.Observed;

    public override long TimestampFrequency => TimeSpan.TicksPerSecond;

    public override long GetTimestamp() => Interlocked.Read(ref _ticks);

    public override DateTimeOffset GetUtcNow() => Start + TimeSpan.FromTicks(Interlocked.Read(ref _ticks));

    public void Advance(TimeSpan by) => Interlocked.Add(ref _ticks, by.Ticks);
}

/// <summary>Runs the built loadgen as a child process to completion, with a time bound.</summary>
internal static class LoadGenProcess
{
    public static Task<(int ExitCode, string Output, string Errors)> RunAsync(TimeSpan timeout, params string[] args) =>
        RunAsync(timeout, _ => Task.CompletedTask, args);

    /// <summary>Starts loadgen, lets <paramref name="whileRunning"/> act on the live process, then waits for the exit.</summary>
    public static async Task<(int ExitCode, string Output, string Errors)> RunAsync(TimeSpan timeout, Func<ChildProcess, Task> whileRunning, params string[] args)
    {
        await using var process = ChildProcess.Start(new ChildProcessOptions
        {
            Name = "loadgen",
            // Through env --default-signal=INT: a test runner started as a background job of a non-interactive shell
            // (nohup … &, some CI agents) ignores SIGINT, the child would inherit that, and the .NET runtime keeps an
            // ignored SIGINT ignored — so a test's Ctrl+C would never reach loadgen. env resets it, then execs dotnet.
            FileName = "env",
            Arguments = ["--default-signal=INT", "dotnet", RepoLayout.Current.RequireBuilt("SensorPipeline.LoadGen", "loadgen.dll"), .. args],
            // The test decides every setting by its arguments: none inherited from the environment may leak in.
            Environment = InheritedSettings(),
        });
        using var cancel = new CancellationTokenSource(timeout);
        try
        {
            await whileRunning(process).WaitAsync(cancel.Token);
        }
        catch (OperationCanceledException)
        {
            throw new TimeoutException($"loadgen {string.Join(' ', args)} did not finish within {timeout}; stderr: {process.StandardError}");
        }

        await process.WaitForExitAsync(timeout);
        return (process.ExitCode, process.StandardOutput, process.StandardError);
    }

    /// <summary>The settings loadgen falls back to when an option is not given (EventHubConnection…, the hub names, the
    /// Cosmos__ account, database and containers), as set in this process (e.g. by a developer's sourced azure.env),
    /// each mapped to null: removed from the child's environment.</summary>
    private static Dictionary<string, string?> InheritedSettings() =>
        System.Environment.GetEnvironmentVariables().Keys.Cast<string>()
            .Where(name => name.StartsWith("EventHubConnection", StringComparison.Ordinal) || name.StartsWith("Cosmos__", StringComparison.Ordinal)
                || name.EndsWith("HubName", StringComparison.Ordinal))
            .ToDictionary(name => name, _ => (string?)null, StringComparer.Ordinal);
}
