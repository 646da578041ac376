using System.Diagnostics;

namespace SensorPipeline.Toolkit;

/// <summary><c>perf record -e cpu-clock -F 999 -g -p PID</c> on a running process, from <see cref="StartAsync"/> until
/// <see cref="StopAsync"/>, then its samples read back through <c>perf script</c>. The profiled process needs
/// <c>DOTNET_PerfMapEnabled=1</c> (it writes <c>/tmp/perf-PID.map</c>, how perf names JIT'd methods) and
/// <c>DOTNET_EnableWriteXorExecute=0</c> (else JIT'd code runs at addresses that map names no method), and loads the
/// standalone GC so the collector's frames are known by module:
/// <see cref="RuntimeEnvironment"/>.</summary>
public sealed class PerfRecording : IAsyncDisposable
{
    /// <summary>Samples per second: 999, off any timer tick the process might run in step with.</summary>
    public const int Frequency = 999;

    private readonly ChildProcess _perf;
    private readonly string _data;

    private PerfRecording(ChildProcess perf, string data)
    {
        _perf = perf;
        _data = data;
    }

    /// <summary>What a .NET process must be started with for its JIT'd frames to have names in a recording.</summary>
    public static IReadOnlyDictionary<string, string?> RuntimeEnvironment { get; } = new Dictionary<string, string?>
    {
        ["DOTNET_PerfMapEnabled"] = "1",
        ["DOTNET_EnableWriteXorExecute"] = "0",

        // The runtime's standalone GC with regions (shipped beside it, as the built-in one is built): its frames
        // then carry its own module's name, where the built-in GC's are unnamed frames of the stripped runtime.
        ["DOTNET_GCName"] = "libclrgcexp.so",
    };

    /// <summary>perf's path, or null when it is not installed (Debian's <c>linux-perf</c>).</summary>
    public static string? Program => ChildProcess.FindOnPath("perf");

    /// <summary>Starts recording <paramref name="pid"/> into <paramref name="dataFile"/> and waits until perf has
    /// attached (its first line of output, or a short grace on a perf that prints none).</summary>
    public static async Task<PerfRecording> StartAsync(int pid, string dataFile, CancellationToken cancellationToken = default)
    {
        var perf = Program ?? throw new InvalidOperationException("perf is not installed: install Debian's linux-perf (apt-get install linux-perf)");
        var child = ChildProcess.Start(new ChildProcessOptions
        {
            FileName = perf,
            Name = "perf record",
            Arguments = ["record", "-e", "cpu-clock", "-F", Frequency.ToString(System.Globalization.CultureInfo.InvariantCulture), "-g",
                "-p", pid.ToString(System.Globalization.CultureInfo.InvariantCulture), "-o", dataFile],
        });
        var recording = new PerfRecording(child, dataFile);
        // perf prints nothing until it stops; attaching takes a moment, and a perf that cannot attach exits at once.
        var exited = await Task.WhenAny(child.Exited, Task.Delay(TimeSpan.FromMilliseconds(300), cancellationToken));
        if (exited == child.Exited)
        {
            throw new InvalidOperationException($"perf record exited at once ({child.ExitCode}): {child.Output}");
        }

        return recording;
    }

    /// <summary>Stops the recording (SIGINT: perf writes its file and exits) and reads its samples.</summary>
    public async Task<IReadOnlyList<PerfSample>> StopAsync(CancellationToken cancellationToken = default)
    {
        _perf.Signal(PosixSignalKind.Interrupt);
        var code = await _perf.WaitForExitAsync(TimeSpan.FromSeconds(60), cancellationToken);
        if (code != 0 && !File.Exists(_data))
        {
            throw new InvalidOperationException($"perf record failed ({code}): {_perf.Output}");
        }

        using var script = Process.Start(new ProcessStartInfo(Program!, ["script", "-i", _data])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        }) ?? throw new InvalidOperationException("perf script did not start");
        var errors = script.StandardError.ReadToEndAsync(cancellationToken);
        var samples = PerfScript.Parse(script.StandardOutput).ToList();
        await script.WaitForExitAsync(cancellationToken);
        return script.ExitCode == 0 ? samples : throw new InvalidOperationException($"perf script failed ({script.ExitCode}): {await errors}");
    }

    public async ValueTask DisposeAsync() => await _perf.DisposeAsync();
}
