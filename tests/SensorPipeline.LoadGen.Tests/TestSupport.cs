namespace SensorPipeline.LoadGen.Tests;

/// <summary>The one fixed instant the tests' readings, events and ledgers are made at, so none depends on the real clock.</summary>
internal static class TestTime
{
    public static readonly DateTimeOffset Now = new(2026, 11, 21, 12, 0, 0, TimeSpan.Zero);
}

/// <summary>A clock the test moves by hand: timestamps and "now" advance only when told.</summary>
internal sealed class ManualClock : TimeProvider
{
    private long _ticks;

    public static readonly DateTimeOffset Start = TestTime.Now;

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
            // The test decides the connection: an EventHubConnection inherited from the environment must not leak in.
            Environment = new Dictionary<string, string?> { ["EventHubConnection"] = null, ["EventHubConnection__fullyQualifiedNamespace"] = null },
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
}
