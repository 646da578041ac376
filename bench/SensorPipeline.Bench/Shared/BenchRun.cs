using System.Reflection;

namespace SensorPipeline.Bench;

/// <summary>
/// What every bench shares: the line that opens its output (which bench, the machine: cores, load average, .NET, the
/// build), the line that closes it (the load average again: other programs sharing the cores slow every figure), and one
/// mapping of how it ended to the exit code (<see cref="ExitCodes"/>): interrupted 130; a failure of the stack, a store
/// or a child process 1, with its message; otherwise the bench's own code.
/// </summary>
internal static class BenchRun
{
    /// <summary>Runs <paramref name="body"/> as bench <paramref name="name"/> (see the class).</summary>
    public static async Task<int> RunAsync(string name, Func<CancellationToken, Task<int>> body, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(body);
        Console.WriteLine($"bench {name}: {Machine()}");
        try
        {
            var code = await body(cancellationToken);
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"bench {name}: done, exit {code}; load average (1 min) {ProcessCpu.ReadLoadAverage():F1} at the end"));
            return code;
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            return ExitCodes.Interrupted;
        }
        catch (Exception e) when (e is InvalidOperationException or TimeoutException or IOException or HttpRequestException or Microsoft.Azure.Cosmos.CosmosException)
        {
            await Console.Error.WriteLineAsync($"bench {name}: {e.Message}");
            return ExitCodes.Failed;
        }
    }

    /// <summary>As <see cref="RunAsync(string, Func{CancellationToken, Task{int}}, CancellationToken)"/>, for a bench whose body has no exit code of its own (0 when it returns).</summary>
    public static Task<int> RunAsync(string name, Func<CancellationToken, Task> body, CancellationToken cancellationToken) =>
        RunAsync(name, async token =>
        {
            await body(token);
            return ExitCodes.Ok;
        }, cancellationToken);

    /// <summary>The machine a figure was measured on: cores, load average, .NET, and this program's build.</summary>
    public static string Machine()
    {
        var optimized = typeof(BenchRun).Assembly.GetCustomAttribute<DebuggableAttribute>()?.IsJITOptimizerDisabled != true;
        return string.Create(CultureInfo.InvariantCulture,
            $"{Environment.ProcessorCount} cores, load average (1 min) {ProcessCpu.ReadLoadAverage():F1}, .NET {Environment.Version}, {(optimized ? "Release" : "Debug")} build");
    }

    /// <summary>A fresh run folder under the repository's <c>.pipeline/bench/</c>: <c>NAME-yyyyMMdd-HHmmss</c>.</summary>
    public static string RunFolder(RepoLayout layout, string name)
    {
        ArgumentNullException.ThrowIfNull(layout);
        return Path.Combine(layout.Root, ".pipeline", "bench", name + "-" + DateTimeOffset.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture));
    }
}
