namespace SensorPipeline.EventHubs.Bench;

/// <summary>What one window of a case measured: events acknowledged, seconds, CPU per event of the client (this
/// process) and of devhost, what the emulator counted, and, for a profiled window, where devhost's CPU went.</summary>
internal sealed record SenderWindow(long Events, double Seconds, double ClientMicrosPerEvent, double DevHostMicrosPerEvent, EmulatorCounters Counters, int Partitions,
    IReadOnlyDictionary<string, double>? StageShares = null, int Samples = 0)
{
    public double EventsPerSecond => Events / Seconds;

    /// <summary>devhost's CPU µs per event in <paramref name="stage"/> (its share of the samples × the window's CPU per
    /// event); null for a window that was not profiled.</summary>
    public double? StageMicrosPerEvent(string stage) => StageShares is { } shares ? shares[stage] * DevHostMicrosPerEvent : null;

    /// <summary><paramref name="inFlight"/> loops calling <paramref name="send"/> for <paramref name="duration"/>;
    /// events counted are those each call reports acknowledged. With <paramref name="perfData"/>, perf records devhost
    /// over the window into that file.</summary>
    public static async Task<SenderWindow> MeasureAsync(DevHostProcess devHost, HttpClient status, int inFlight, TimeSpan duration, Func<CancellationToken, Task<int>> send,
        string? perfData = null)
    {
        var (before, partitions) = await EmulatorCounters.ReadAsync(status, "ingestion", CancellationToken.None);
        await using var perf = perfData is null ? null : await PerfRecording.StartAsync(devHost.Process.Id, perfData);
        var serverCpu = ProcessCpu.ReadSeconds(devHost.Process.Id) ?? throw new InvalidOperationException("devhost exited");
        var me = Process.GetCurrentProcess();
        var clientCpu = me.TotalProcessorTime;
        var stopwatch = Stopwatch.StartNew();
        using var stop = new CancellationTokenSource(duration);
        var events = await RunLoopsAsync(inFlight, send, stop.Token);
        var seconds = stopwatch.Elapsed.TotalSeconds;
        var serverSeconds = (ProcessCpu.ReadSeconds(devHost.Process.Id) ?? throw new InvalidOperationException("devhost exited")) - serverCpu;
        me.Refresh();
        var samples = perf is null ? null : await perf.StopAsync();
        var (after, _) = await EmulatorCounters.ReadAsync(status, "ingestion", CancellationToken.None);
        var perEvent = Math.Max(1, events);
        return new SenderWindow(events, seconds, (me.TotalProcessorTime - clientCpu).TotalMicroseconds / perEvent, serverSeconds * 1e6 / perEvent,
            EmulatorCounters.Between(before, after), partitions, samples is null ? null : DevHostStages.Shares(samples), samples?.Count ?? 0);
    }

    /// <summary>A warm-up of <paramref name="duration"/>, measuring nothing.</summary>
    public static async Task WarmUpAsync(int inFlight, TimeSpan duration, Func<CancellationToken, Task<int>> send)
    {
        using var warmUp = new CancellationTokenSource(duration);
        await RunLoopsAsync(inFlight, send, warmUp.Token);
    }

    private static async Task<long> RunLoopsAsync(int inFlight, Func<CancellationToken, Task<int>> send, CancellationToken stop)
    {
        var counts = await Task.WhenAll(Enumerable.Range(0, inFlight).Select(async _ =>
        {
            long mine = 0;
            while (!stop.IsCancellationRequested)
            {
                try
                {
                    mine += await send(stop);
                }
                catch (OperationCanceledException) when (stop.IsCancellationRequested)
                {
                    break;
                }
            }

            return mine;
        }));
        return counts.Sum();
    }
}
