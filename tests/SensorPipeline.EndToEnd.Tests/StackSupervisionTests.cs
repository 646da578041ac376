using System.Net.Http.Json;
using System.Text.RegularExpressions;

namespace SensorPipeline.EndToEnd.Tests;

/// <summary>
/// <c>stack up</c> (what <c>./pipeline up</c> runs) as a user runs it, as a process: a child that dies is named with its
/// exit code and last lines, and no child outlives the stack, a kill -9 of the stack included.
/// </summary>
[Collection(StackCollections.Commands)]
public sealed partial class StackSupervisionTests : IDisposable
{
    private readonly TempDirectory _data = new("sensorpipeline-up-");

    public void Dispose() => _data.Dispose();

    [Fact]
    public async Task Up_StackKilledHard_LeavesNoChildRunning()
    {
        await using var stack = await StartUpAsync();
        var handlerPid = await HandlerPidAsync(stack);
        var children = Descendants(stack.Id);
        Assert.Contains(handlerPid, children);
        Assert.True(children.Count >= 3, $"expected the Cosmos DB emulator, devhost and the handler under the stack, found pids {string.Join(", ", children)}");

        stack.Signal(PosixSignalKind.Kill);

        await Eventually.ValueAsync(_ => Task.FromResult(children.Where(IsRunning).ToList()), running => running.Count == 0,
            "every process the stack started to be gone after kill -9 of the stack", TimeSpan.FromMinutes(1), TimeSpan.FromMilliseconds(200));
    }

    [Fact]
    public async Task Up_HandlerThenEmulatorKilled_ReportsEachWithExitCodeAndLastLinesAndStops()
    {
        await using var stack = await StartUpAsync();
        var handlerPid = await HandlerPidAsync(stack);
        using (var handler = System.Diagnostics.Process.GetProcessById(handlerPid))
        {
            handler.Kill();
        }

        await stack.WaitForLineAsync(new Regex($@"^stack: the custom handler: Custom handler pid {handlerPid} exited with code 137; devhost restarts it\. Its last lines"),
            TimeSpan.FromMinutes(1));

        var cosmosPid = int.Parse(CosmosPid().Match(stack.Output).Groups["pid"].Value, CultureInfo.InvariantCulture);
        using (var cosmos = System.Diagnostics.Process.GetProcessById(cosmosPid))
        {
            cosmos.Kill();
        }

        Assert.Equal(1, await stack.WaitForExitAsync(TimeSpan.FromMinutes(2)));
        Assert.Matches(new Regex($@"stack: the Cosmos DB emulator \(pid {cosmosPid}\) exited with code 137; stopping everything\. Its last lines \(all in \S+cosmos\.log\):\n  \S"),
            stack.Output);
    }

    /// <summary><c>stack up</c> on a free port and this test's data directory, once it says it is running.</summary>
    private async Task<ChildProcess> StartUpAsync()
    {
        var layout = RepoLayout.Discover();
        var stack = ChildProcess.Start(new ChildProcessOptions
        {
            Name = "stack up",
            FileName = "dotnet",
            Arguments = [layout.RequireBuilt("SensorPipeline.Stack", "stack.dll"), "up", "--port", "0", "--data", _data.Path],
            WorkingDirectory = layout.Root,
            LogPath = Path.Combine(_data.Path, "stack.log"),
        });
        try
        {
            await stack.WaitForLineAsync("SensorPipeline is running locally", TimeSpan.FromMinutes(3));
            return stack;
        }
        catch
        {
            await stack.DisposeAsync();
            throw;
        }
    }

    /// <summary>The pid of the handler devhost runs, once it runs one.</summary>
    private static async Task<int> HandlerPidAsync(ChildProcess stack)
    {
        var devHost = new Uri(DevHostUrl().Match(stack.Output).Groups["url"].Value);
        using var http = new HttpClient();
        var status = await Eventually.ValueAsync(token => http.GetFromJsonAsync<FunctionsStatus>(new Uri(devHost, "status/functions"), JsonSerializerOptions.Web, token),
            s => s?.HandlerPid is not null, "devhost to report its handler running", TimeSpan.FromMinutes(2), TimeSpan.FromMilliseconds(250));
        return status!.HandlerPid!.Value;
    }

    /// <summary>Every process below <paramref name="pid"/>, from each process's parent in /proc.</summary>
    private static List<int> Descendants(int pid)
    {
        var parents = new Dictionary<int, int>();
        foreach (var dir in Directory.EnumerateDirectories("/proc"))
        {
            if (int.TryParse(Path.GetFileName(dir), out var child) && Stat(child) is { } stat)
            {
                parents[child] = stat.Parent;
            }
        }

        List<int> found = [];
        Queue<int> next = new([pid]);
        while (next.TryDequeue(out var parent))
        {
            foreach (var child in parents.Where(p => p.Value == parent).Select(p => p.Key))
            {
                found.Add(child);
                next.Enqueue(child);
            }
        }

        return found;
    }

    /// <summary>Running: it exists and is not a zombie waiting to be reaped.</summary>
    private static bool IsRunning(int pid) => Stat(pid) is { State: not 'Z' };

    /// <summary>State and parent from /proc/PID/stat (after the command's closing parenthesis); null when it is gone.</summary>
    private static (char State, int Parent)? Stat(int pid)
    {
        try
        {
            var text = File.ReadAllText($"/proc/{pid}/stat");
            var fields = text[(text.LastIndexOf(')') + 2)..].Split(' ');
            return (fields[0][0], int.Parse(fields[1], CultureInfo.InvariantCulture));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    [GeneratedRegex(@"devhost \(Event Hubs REST \+ AMQP, Functions host\)\s+(?<url>http://\S+)")]
    private static partial Regex DevHostUrl();

    [GeneratedRegex(@"Cosmos DB emulator\s+https://\S+\s+\(pid (?<pid>\d+)")]
    private static partial Regex CosmosPid();
}
