using System.Diagnostics;
using System.Globalization;

namespace SensorPipeline.Toolkit;

/// <summary>
/// Makes sure no process group a <see cref="ChildProcess"/> started outlives this process, however this process ends,
/// kill -9 included. Each child leads its own process group (it is started through <c>setsid</c>), so the group holds
/// it and everything it starts that stays in its group (devhost's handler, even once devhost is gone). The reaper is one
/// small shell started with the first child: it reads the groups to kill from its stdin, and the only writer of that
/// pipe is this process, so the kernel closes it when this process ends and the reaper then kills each group it was
/// told of. A parent-death signal (<c>prctl(PR_SET_PDEATHSIG)</c>) would not do: .NET cannot set it between fork and
/// exec, and it fires when the forking thread ends, which for a thread-pool thread is any idle moment.
/// </summary>
internal static class ProcessGroupReaper
{
    // Ignores the terminal's and a service manager's signals: it must outlive the stack to do its one job, and it
    // exits on its own at the end of its input.
    private const string Script = """
        trap '' INT TERM HUP QUIT
        declare -A groups
        while read -r line; do
          case "$line" in
            +*) groups["${line#+}"]=1 ;;
            -*) unset "groups[${line#-}]" ;;
          esac
        done
        for group in "${!groups[@]}"; do kill -KILL -- "-$group" 2>/dev/null; done
        """;

    private static readonly Lock Gate = new();
    private static readonly HashSet<int> Groups = [];
    private static Process? _reaper;

    /// <summary>The group led by <paramref name="leader"/> is killed when this process ends.</summary>
    public static void Add(int leader) => Change(leader, add: true);

    /// <summary>The group led by <paramref name="leader"/> is gone: forget it, so its number, once reused, is safe.</summary>
    public static void Remove(int leader) => Change(leader, add: false);

    private static void Change(int leader, bool add)
    {
        lock (Gate)
        {
            if (!(add ? Groups.Add(leader) : Groups.Remove(leader)))
            {
                return;
            }

            var line = (add ? "+" : "-") + leader.ToString(CultureInfo.InvariantCulture);
            try
            {
                Running().StandardInput.WriteLine(line);
            }
            catch (IOException)
            {
                // The reaper was killed: a new one is told every group still alive.
                _reaper?.Dispose();
                _reaper = null;
                Running();
            }
        }
    }

    /// <summary>The reaper, started (and told every known group) when there is none or it has exited.</summary>
    private static Process Running()
    {
        if (_reaper is { HasExited: false })
        {
            return _reaper;
        }

        _reaper?.Dispose();
        var info = new ProcessStartInfo("setsid") { RedirectStandardInput = true, UseShellExecute = false };
        foreach (var argument in new[] { "bash", "-c", Script })
        {
            info.ArgumentList.Add(argument);
        }

        _reaper = Process.Start(info) ?? throw new InvalidOperationException("cannot start the process-group reaper (setsid bash)");
        _reaper.StandardInput.AutoFlush = true;
        foreach (var group in Groups)
        {
            _reaper.StandardInput.WriteLine("+" + group.ToString(CultureInfo.InvariantCulture));
        }

        return _reaper;
    }
}
