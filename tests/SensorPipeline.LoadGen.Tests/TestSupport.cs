using System.Diagnostics;
using System.Text;

namespace SensorPipeline.LoadGen.Tests;

/// <summary>A clock the test moves by hand: timestamps and "now" advance only when told.</summary>
internal sealed class ManualClock : TimeProvider
{
    private long _ticks;

    public static readonly DateTimeOffset Start = new(2026, 11, 21, 12, 0, 0, TimeSpan.Zero);

    public override long TimestampFrequency => TimeSpan.TicksPerSecond;

    public override long GetTimestamp() => Interlocked.Read(ref _ticks);

    public override DateTimeOffset GetUtcNow() => Start + TimeSpan.FromTicks(Interlocked.Read(ref _ticks));

    public void Advance(TimeSpan by) => Interlocked.Add(ref _ticks, by.Ticks);
}

/// <summary>A temporary directory deleted on dispose.</summary>
internal sealed class TempDirectory : IDisposable
{
    public TempDirectory() => Directory.CreateDirectory(Path);

    public string Path { get; } = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "sp-lg-" + Guid.NewGuid().ToString("N")[..12]);

    public string File(string name) => System.IO.Path.Combine(Path, name);

    public void Dispose()
    {
        if (Directory.Exists(Path))
        {
            Directory.Delete(Path, recursive: true);
        }
    }
}

internal static class Repo
{
    /// <summary>The repository root (where SensorPipeline.slnx lives).</summary>
    public static string Root
    {
        get
        {
            var dir = new DirectoryInfo(AppContext.BaseDirectory);
            while (dir is not null && !System.IO.File.Exists(System.IO.Path.Combine(dir.FullName, "SensorPipeline.slnx")))
            {
                dir = dir.Parent;
            }

            return dir?.FullName ?? throw new InvalidOperationException("Repository root not found above " + AppContext.BaseDirectory);
        }
    }

    /// <summary>artifacts/bin/&lt;project&gt;/&lt;config&gt;/&lt;dll&gt; beside this test's own output folder.</summary>
    public static string Built(string project, string dll)
    {
        var testDir = new DirectoryInfo(AppContext.BaseDirectory.TrimEnd(System.IO.Path.DirectorySeparatorChar));
        var path = System.IO.Path.Combine(testDir.Parent!.Parent!.FullName, project, testDir.Name, dll);
        return System.IO.File.Exists(path) ? path : throw new FileNotFoundException($"Build {project} first (the test project references it).", path);
    }
}

/// <summary>Runs the built loadgen as a child process to completion, with a time bound.</summary>
internal static class LoadGenProcess
{
    public static string DllPath => Repo.Built("SensorPipeline.LoadGen", "loadgen.dll");

    public static Task<(int ExitCode, string Output, string Errors)> RunAsync(TimeSpan timeout, params string[] args) =>
        RunAsync(timeout, _ => Task.CompletedTask, args);

    /// <summary>Starts loadgen, lets <paramref name="whileRunning"/> act on the live process, then waits for the exit.</summary>
    public static async Task<(int ExitCode, string Output, string Errors)> RunAsync(TimeSpan timeout, Func<Process, Task> whileRunning, params string[] args)
    {
        var start = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        start.ArgumentList.Add(DllPath);
        foreach (var arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        // The test decides the connection: an EventHubConnection inherited from the environment must not leak in.
        start.Environment.Remove("EventHubConnection");
        start.Environment.Remove("EventHubConnection__fullyQualifiedNamespace");
        using var process = Process.Start(start)!;
        var output = process.StandardOutput.ReadToEndAsync();
        var errors = process.StandardError.ReadToEndAsync();
        using var cancel = new CancellationTokenSource(timeout);
        try
        {
            await whileRunning(process).WaitAsync(cancel.Token);
            await process.WaitForExitAsync(cancel.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"loadgen {string.Join(' ', args)} did not finish within {timeout}; stderr: {await errors}");
        }

        return (process.ExitCode, await output, await errors);
    }
}

/// <summary>A child process that prints a URL line when ready; killed on dispose.</summary>
internal sealed class ServerProcess : IAsyncDisposable
{
    private readonly Process _process;

    private ServerProcess(Process process, Uri url)
    {
        _process = process;
        Url = url;
    }

    public Uri Url { get; }

    public static async Task<ServerProcess> StartAsync(string fileName, IEnumerable<string> args, string readyPrefix, string? workingDirectory = null)
    {
        var start = new ProcessStartInfo(fileName) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false, WorkingDirectory = workingDirectory ?? "" };
        foreach (var arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        var process = new Process { StartInfo = start, EnableRaisingEvents = true };
        var ready = new TaskCompletionSource<Uri>(TaskCreationOptions.RunContinuationsAsynchronously);
        var errors = new StringBuilder();
        process.OutputDataReceived += (_, e) =>
        {
            if (e.Data is { } line && line.StartsWith(readyPrefix, StringComparison.Ordinal))
            {
                ready.TrySetResult(new Uri(line[readyPrefix.Length..].Trim()));
            }
        };
        process.ErrorDataReceived += (_, e) =>
        {
            lock (errors)
            {
                errors.AppendLine(e.Data);
            }
        };
        process.Exited += (_, _) => ready.TrySetException(new InvalidOperationException($"{fileName} exited with {process.ExitCode} before it was ready: {errors}"));
        process.Start();
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        try
        {
            return new ServerProcess(process, await ready.Task.WaitAsync(TimeSpan.FromSeconds(60)));
        }
        catch
        {
            process.Kill(entireProcessTree: true);
            process.Dispose();
            throw;
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
        }

        await _process.WaitForExitAsync();
        _process.Dispose();
    }
}
