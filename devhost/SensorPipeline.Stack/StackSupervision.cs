using System.Text.RegularExpressions;
using System.Threading.Channels;

namespace SensorPipeline.Stack;

/// <summary>
/// How <c>./pipeline up</c> watches the stack it runs. devhost, the Cosmos DB emulator or azurite exiting stops everything: the
/// stack names the child, its exit code and its last lines, kills the child's process group (devhost's handler with
/// it) and exits 1, rather than restart it, because a restart would hide a crash the user should see, and both keep
/// their data on disk, so <c>./pipeline up</c> again resumes where they stopped. A handler exiting is reported the same
/// way and left to devhost, which restarts it and redelivers its batches (the Functions host's own policy).
/// </summary>
internal sealed partial class StackSupervision
{
    private const int TailLines = 20;

    private readonly Channel<string> _handlerExits = Channel.CreateUnbounded<string>(new UnboundedChannelOptions { SingleReader = true });

    /// <summary>Called with each devhost stdout line, on its reader thread: picks out the handler's exits.</summary>
    public void OnDevHostLine(string line)
    {
        if (HandlerExited().Match(line) is { Success: true } match)
        {
            _handlerExits.Writer.TryWrite(match.Value);
        }
    }

    /// <summary>Reports handler exits until devhost, the Cosmos DB emulator or azurite exits (reported, then true) or
    /// <paramref name="cancellationToken"/> is cancelled (false: a stop the user asked for).</summary>
    public async Task<bool> WatchAsync(LocalPipeline pipeline, TextWriter report, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(pipeline);
        ArgumentNullException.ThrowIfNull(report);
        var devHost = pipeline.DevHost ?? throw new InvalidOperationException("devhost is not running");
        (string Name, ChildProcess Process)[] children =
            [("devhost", devHost), ("the Cosmos DB emulator", pipeline.Cosmos), ("azurite", pipeline.Azurite)];
        var cancelled = Task.Delay(Timeout.Infinite, cancellationToken);
        while (true)
        {
            var handlerExit = _handlerExits.Reader.ReadAsync(cancellationToken).AsTask();
            var first = await Task.WhenAny(children.Select(c => (Task)c.Process.Exited).Append(handlerExit).Append(cancelled));
            if (first == cancelled || cancellationToken.IsCancellationRequested)
            {
                return false;
            }

            if (first == handlerExit)
            {
                var handlerLines = devHost.LastLines(int.MaxValue).Where(l => l.Contains("[handler ", StringComparison.Ordinal)).TakeLast(TailLines);
                await report.WriteLineAsync(Describe($"the custom handler: {await handlerExit}; devhost restarts it", devHost.LogPath, handlerLines.ToList()));
                continue;
            }

            var (name, dead) = children.First(c => c.Process.Exited == first);
            dead.KillProcessGroup();
            await report.WriteLineAsync(Describe($"{name} (pid {dead.Id}) exited with code {await dead.Exited}; stopping everything",
                dead.LogPath, dead.LastLines(TailLines)));
            return true;
        }
    }

    private static string Describe(string what, string? logPath, IReadOnlyList<string> lines) =>
        $"stack: {what}. Its last lines{(logPath is null ? "" : $" (all in {logPath})")}:\n"
        + (lines.Count == 0 ? "  (none)" : string.Join('\n', lines.Select(l => "  " + l)));

    [GeneratedRegex(@"Custom handler pid \d+ exited with code -?\d+")]
    private static partial Regex HandlerExited();
}
