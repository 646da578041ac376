using System.Text;

namespace SensorPipeline.EventHubs.Bench;

/// <summary><c>./pipeline bench senders</c>: the sender study "Event Hubs ingestion performance and throughput"
/// (https://vincentlauzon.com/2018/06/05/event-hubs-ingestion-performance-and-throughput/) reproduced against devhost
/// with the official client, same run, same durability: a new connection per event, one by one on a reused connection,
/// batches of 50, the buffered producer — over AMQP and REST, at each number of sends in flight — with events/s, the
/// client's and devhost's CPU per event and what devhost's emulator counted (group commits, fsyncs, AMQP frames). Then
/// the durability cost: AMQP one by one with fsync before every disposition (Always) against durability off (None) at
/// the highest number in flight. The cases the targets compare get a second, profiled window (perf on devhost), whose
/// samples say where devhost's CPU per event goes; the measured window is never profiled.</summary>
internal static class SendersBench
{
    private static readonly int[] InFlight = [1, 8, 64];

    public static async Task RunAsync(BenchSettings settings, TextWriter output)
    {
        if (PerfRecording.Program is null)
        {
            throw new InvalidOperationException("perf is not installed (Debian's linux-perf): ./pipeline bench senders installs it with apt-get; or install it yourself");
        }

        using var directory = new TempDirectory("sp-eh-senders-");
        var body = Encoding.UTF8.GetBytes(new string('x', settings.BodyBytes));
        var duration = TimeSpan.FromSeconds(settings.Seconds);
        var report = new SenderReport();
        await using (var devHost = await StartAsync(directory, "Always"))
        using (var status = new HttpClient { BaseAddress = devHost.BaseAddress })
        {
            foreach (var n in InFlight)
            {
                foreach (var (name, create) in SenderCases.All(devHost, body, n))
                {
                    var profiled = n == InFlight[^1] && name is SenderCases.AmqpOneByOneName or SenderCases.RestOneByOneName;
                    report.Add(name, n, "Always", await RunCaseAsync(devHost, status, directory, n, duration, create, profiled));
                }
            }
        }

        await using (var devHost = await StartAsync(directory, "None"))
        using (var status = new HttpClient { BaseAddress = devHost.BaseAddress })
        {
            var n = InFlight[^1];
            report.Add(SenderCases.AmqpOneByOneName, n, "None", await RunCaseAsync(devHost, status, directory, n, duration, () => SenderCases.AmqpOneByOne(devHost, body), profiled: true));
        }

        report.Print(output);
        if (KernelFramesHidden())
        {
            output.WriteLine("note: kernel.perf_event_paranoid > 1 and not root: perf sampled user space only, so the fsync and network stages read low (their kernel time lands in the code that called them)");
        }

        new SenderTargets(report, InFlight[^1]).Print(output);
        output.WriteLine("the study (1-CPU client against the service): 100 threads, pooled connections — AMQP 3,311 events/s, HTTP 420; one by one on one connection — HTTP 0.024 s, AMQP 0.035 s per event");
        output.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"this run: {Environment.ProcessorCount} cores shared by client and devhost, {settings.Seconds} s per case (a profiled case runs a second window of as long under perf -F {PerfRecording.Frequency}), bodies {settings.BodyBytes} B, batches of {SenderCases.BatchSize}; devhost runs with {string.Join(", ", PerfRecording.RuntimeEnvironment.Select(e => e.Key + "=" + e.Value))} in every case"));
    }

    /// <summary>One case: its clients, a 1 s warm-up, the measured window, and for a profiled case a second window
    /// under perf; each case closes its clients before the next starts (a buffered producer would otherwise go on
    /// sending into the next case).</summary>
    private static async Task<SenderCase> RunCaseAsync(DevHostProcess devHost, HttpClient status, TempDirectory directory, int inFlight, TimeSpan duration,
        Func<(Func<CancellationToken, Task<int>> Run, IAsyncDisposable Owned)> create, bool profiled)
    {
        var (run, owned) = create();
        try
        {
            await SenderWindow.WarmUpAsync(inFlight, TimeSpan.FromSeconds(1), run);
            var measured = await SenderWindow.MeasureAsync(devHost, status, inFlight, duration, run);
            var profile = profiled
                ? await SenderWindow.MeasureAsync(devHost, status, inFlight, duration, run, Path.Combine(directory.Path, $"perf-{Guid.NewGuid():N}.data"))
                : null;
            return new SenderCase(measured, profile);
        }
        finally
        {
            await owned.DisposeAsync();
        }
    }

    /// <summary>True when perf may not sample the kernel for this user (only root is exempt from the setting).</summary>
    private static bool KernelFramesHidden() =>
        Environment.UserName != "root" && File.Exists("/proc/sys/kernel/perf_event_paranoid")
        && int.Parse(File.ReadAllText("/proc/sys/kernel/perf_event_paranoid").Trim(), CultureInfo.InvariantCulture) > 1;

    private static async Task<DevHostProcess> StartAsync(TempDirectory directory, string durability)
    {
        var root = Path.Combine(directory.Path, durability);
        return await DevHostProcess.StartAsync(new DevHostStart
        {
            AppRoot = Directory.CreateDirectory(Path.Combine(root, "app")).FullName,
            DataDirectory = Path.Combine(root, "data"),
            HubsFile = RepoLayout.Current.EventHubsConfig,
            Settings = ["EventHubs:Durability=" + durability],
            Environment = PerfRecording.RuntimeEnvironment,
        });
    }
}

/// <summary>A case's measured window and, when the case was profiled, its profiled window.</summary>
internal sealed record SenderCase(SenderWindow Measured, SenderWindow? Profiled);
