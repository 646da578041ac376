using System.Diagnostics;
using System.Globalization;

namespace SensorPipeline.FunctionsHost.Handler;

/// <summary>Remembers the running handler's pid in <c>{data}/handler.pid</c>. When devhost is killed with -9 its
/// handler child keeps running (Linux does not take children down with their parent); the next devhost start finds
/// the pid file and stops that orphan first. A pid is only killed when /proc shows it still runs the same command
/// line, so a reused pid is left alone.</summary>
internal static class HandlerPidFile
{
    public static string PathIn(string dataDirectory) => Path.Combine(Path.GetFullPath(dataDirectory), "handler.pid");

    public static async Task WriteAsync(string dataDirectory, int pid, CancellationToken cancellationToken)
    {
        Directory.CreateDirectory(Path.GetFullPath(dataDirectory));
        await File.WriteAllTextAsync(PathIn(dataDirectory), pid.ToString(CultureInfo.InvariantCulture) + "\n" + CommandLine(pid), cancellationToken);
    }

    /// <summary>Kills the handler a previous devhost left behind, if it still runs; returns its pid, or null.</summary>
    public static async Task<int?> KillOrphanAsync(string dataDirectory, CancellationToken cancellationToken)
    {
        var path = PathIn(dataDirectory);
        if (!File.Exists(path))
        {
            return null;
        }

        var lines = (await File.ReadAllTextAsync(path, cancellationToken)).Split('\n', 2);
        File.Delete(path);
        if (!int.TryParse(lines[0], NumberStyles.None, CultureInfo.InvariantCulture, out var pid) || lines.Length < 2
            || lines[1].Length == 0 || CommandLine(pid) != lines[1])
        {
            return null;
        }

        try
        {
            using var orphan = Process.GetProcessById(pid);
            orphan.Kill(entireProcessTree: true);
            await orphan.WaitForExitAsync(cancellationToken);
            return pid;
        }
        catch (ArgumentException)
        {
            // It exited after its command line was read: nothing left to stop.
            return null;
        }
    }

    private static string CommandLine(int pid)
    {
        var cmdline = $"/proc/{pid.ToString(CultureInfo.InvariantCulture)}/cmdline";
        try
        {
            return File.Exists(cmdline) ? File.ReadAllText(cmdline).Replace('\0', ' ').Trim() : string.Empty;
        }
        catch (IOException)
        {
            // The process ended between the check and the read: no command line, so nothing to match.
            return string.Empty;
        }
    }
}
