using SensorPipeline.Stack.Scaling;

namespace SensorPipeline.Functions.Bench;

/// <summary>
/// <c>./pipeline bench scale</c> on the local stack with separate Functions-host instances (<c>devhost instance</c>
/// processes, each with its own handler): per instance count N, N instances of each processor started together onto a
/// small backlog (each one's cold start: process start → first invocation served); once they have balanced their
/// partitions, all paused, a fixed backlog filled through the splitter, all resumed and timed until every checkpoint is
/// at its hub's end (throughput, CPU per reading of the instances and their handlers); with N ≥ 2 one WeatherProcessor
/// instance is then killed while it owns partitions (<see cref="RebalanceAsync"/>).
/// </summary>
internal sealed partial class ScaleBench(LocalPipeline pipeline, ScaleArguments arguments, TextWriter output)
{
    private static readonly TimeSpan Poll = TimeSpan.FromMilliseconds(100);

    private InstanceFleet Fleet => pipeline.Fleet ?? throw new InvalidOperationException("the stack runs no separate instances");

    public async Task<ScaleFigures> RunAsync(CancellationToken cancellationToken)
    {
        var drains = new List<DrainStep>();
        var rebalances = new List<RebalanceStep>();
        foreach (var n in arguments.Instances)
        {
            drains.Add(await DrainAsync(n, cancellationToken));
            if (n >= 2 && arguments.KillReadings > 0)
            {
                rebalances.Add(await RebalanceAsync(n, cancellationToken));
            }
        }

        return new ScaleFigures(arguments, drains, rebalances);
    }

    private async Task<DrainStep> DrainAsync(int n, CancellationToken cancellationToken)
    {
        var (instances, coldStarts, coldVerify) = await ColdStartAsync(n, cancellationToken);
        await BalancedAsync(instances, cancellationToken);

        // Paused on every instance while loadgen and the splitter fill the processor hubs, then resumed together: the
        // instances are warm and own their partitions, so the drain measures sustained throughput.
        foreach (var (function, instance, _) in instances)
        {
            await pipeline.SetPausedAsync(instance.BaseAddress, function, paused: true, cancellationToken);
        }

        var prefix = string.Create(CultureInfo.InvariantCulture, $"scale{n}");
        var ledger = Path.Combine(pipeline.Options.DataDirectory, $"ledger-{prefix}.json");
        var loadAtFill = ProcessCpu.ReadLoadAverage();
        var fill = Stopwatch.StartNew();
        await Say($"{n} per processor: balanced and paused; loadgen sends {arguments.Readings:N0} readings …");
        await BacklogLoad.SendAsync(pipeline, arguments.Readings, arguments.ReadingsPerEvent, arguments.Devices, prefix, ledger, cancellationToken);
        var envelopes = await BacklogLoad.WaitForSplitAsync(pipeline, cancellationToken);
        var filled = fill.Elapsed;
        await pipeline.WaitForLastMetricsAsync(cancellationToken);
        var received = await ReceivedAsync(cancellationToken);

        await Say($"{n} per processor: {envelopes:N0} envelopes wait; resuming every instance …");
        var loadAtStart = ProcessCpu.ReadLoadAverage();
        var cpu = CpuMeter.Start(instances.SelectMany(i => new[] { (Id(i.Process), i.Process.Process.Id), (Id(i.Process) + " handler", i.HandlerPid) })
            .ToDictionary(p => p.Item1, p => p.Item2));
        var resumedAt = DateTimeOffset.UtcNow;
        await Task.WhenAll(instances.Select(i => pipeline.SetPausedAsync(i.Process.BaseAddress, i.Function, paused: false, cancellationToken)));
        var drainedAt = await pipeline.WaitForDrainAsync(TimeSpan.FromMinutes(30), TimeSpan.FromMilliseconds(250), cancellationToken);
        var seconds = cpu.Stop();
        var loadAtEnd = ProcessCpu.ReadLoadAverage();
        await Say(string.Create(CultureInfo.InvariantCulture, $"{n} per processor: drained in {(drainedAt - resumedAt).TotalSeconds:N1} s; verifying …"));

        await pipeline.WaitForLastMetricsAsync(cancellationToken);
        var readings = Delta(received, await ReceivedAsync(cancellationToken));
        var (exit, verdict) = await Demo.VerifyAsync(pipeline, ledger, Path.Combine(pipeline.Options.DataDirectory, $"verdict-{prefix}.json"), cancellationToken);
        var figures = instances.Select((i, k) => new InstanceFigures(Id(i.Process), i.Function,
            seconds.GetValueOrDefault(Id(i.Process)) + seconds.GetValueOrDefault(Id(i.Process) + " handler"), coldStarts[k])).ToList();
        return new DrainStep(n, arguments.Readings, envelopes, filled, drainedAt - resumedAt, readings, figures,
            seconds.GetValueOrDefault(CpuMeter.Machine) ?? 0, new Loads(loadAtFill, loadAtStart, loadAtEnd), new Verification(exit, verdict), coldVerify);
    }

    /// <summary>
    /// Both processors scaled to zero, <see cref="ScaleArguments.ColdReadings"/> filled through the splitter, then
    /// <paramref name="n"/> instances of each started together onto that backlog, as the platform adds instances in
    /// one decision; each instance's cold start is its process's age when its status first shows an invocation served.
    /// </summary>
    private async Task<(List<(string Function, DevHostProcess Process, int HandlerPid)> Instances, double?[] ColdStarts, Verification Verify)> ColdStartAsync(
        int n, CancellationToken cancellationToken)
    {
        // Scaled in with SIGTERM: each instance finishes its batch, checkpoints and relinquishes, so nothing is in flight.
        foreach (var function in BacklogLoad.Processors)
        {
            await Fleet.ScaleToAsync(function, 0, cancellationToken);
        }

        var prefix = string.Create(CultureInfo.InvariantCulture, $"cold{n}");
        var ledger = Path.Combine(pipeline.Options.DataDirectory, $"ledger-{prefix}.json");
        await Say($"{n} per processor: loadgen sends {arguments.ColdReadings:N0} readings while no processor instance runs …");
        await BacklogLoad.SendAsync(pipeline, arguments.ColdReadings, arguments.ReadingsPerEvent, arguments.Devices, prefix, ledger, cancellationToken);
        await BacklogLoad.WaitForSplitAsync(pipeline, cancellationToken);

        // StartOneAsync, not ScaleToAsync: the fleet serializes ScaleToAsync, which would start the seismic instances
        // only once the weather ones listen.
        await Say($"{n} per processor: starting {n} instance(s) of each processor onto that backlog …");
        var starting = BacklogLoad.Processors.SelectMany(f => Enumerable.Range(0, n).Select(_ => (Function: f, Task: Fleet.StartOneAsync(f, cancellationToken)))).ToList();
        await Task.WhenAll(starting.Select(s => s.Task));
        using var stopWatching = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var firstServed = starting.Select(s => FirstInvocationAsync(s.Task.Result, stopWatching.Token)).ToList();
        await pipeline.WaitForDrainAsync(TimeSpan.FromMinutes(30), TimeSpan.FromMilliseconds(250), cancellationToken);
        await stopWatching.CancelAsync();
        var coldStarts = await Task.WhenAll(firstServed);

        var instances = new List<(string Function, DevHostProcess Process, int HandlerPid)>();
        foreach (var (function, task) in starting)
        {
            var status = await pipeline.GetInstanceStatusAsync(task.Result, cancellationToken);
            instances.Add((function, task.Result, status.HandlerPid ?? throw new InvalidOperationException($"{task.Result.Process.Name} reports no handler")));
        }

        var (exit, verdict) = await Demo.VerifyAsync(pipeline, ledger, Path.Combine(pipeline.Options.DataDirectory, $"verdict-{prefix}.json"), cancellationToken);
        return (instances, coldStarts, new Verification(exit, verdict));
    }

    /// <summary>Waits until each processor's instances own every partition between them, no two differing by more than one.</summary>
    private async Task BalancedAsync(List<(string Function, DevHostProcess Process, int HandlerPid)> instances, CancellationToken cancellationToken)
    {
        var partitions = (await pipeline.GetFunctionsStatusAsync(cancellationToken)).Functions.ToDictionary(f => f.Name, f => f.Partitions.Count, StringComparer.Ordinal);
        await Eventually.UntilAsync(async token =>
        {
            var balanced = true;
            foreach (var group in instances.GroupBy(i => i.Function))
            {
                var owned = new List<int>();
                foreach (var (_, instance, _) in group)
                {
                    owned.Add((await pipeline.GetInstanceStatusAsync(instance, token)).Functions.Sum(f => f.Partitions.Count(p => p.OwnedHere)));
                }

                balanced &= owned.Sum() == partitions[group.Key] && owned.Max() - owned.Min() <= 1;
            }

            return balanced;
        }, "the instances to balance their partitions", arguments.Expiration * 3 + TimeSpan.FromMinutes(1), Poll, cancellationToken: cancellationToken);
    }

    /// <summary>The instance's process's age when it first reports a succeeded invocation (the kernel's start time, so
    /// the launcher's own delay is inside); null when it served none before the backlog was drained.</summary>
    private async Task<double?> FirstInvocationAsync(DevHostProcess instance, CancellationToken cancellationToken)
    {
        try
        {
            await Eventually.UntilAsync(async token => (await pipeline.GetInstanceStatusAsync(instance, token)).Functions.Sum(f => f.InvocationsSucceeded) > 0,
                $"{instance.Process.Name}'s first invocation", Timeout.InfiniteTimeSpan, Poll, cancellationToken: cancellationToken);
            return ProcessCpu.ReadAgeSeconds(instance.Process.Id);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            return null;
        }
    }

    /// <summary>Readings received per processor function so far (the handlers' <c>ReadingsReceived</c> sums).</summary>
    private async Task<Dictionary<string, double>> ReceivedAsync(CancellationToken cancellationToken) =>
        (await BacklogLoad.MetricAsync(pipeline, Core.Telemetry.MetricNames.ReadingsReceived, cancellationToken)).ToDictionary(p => p.Key, p => p.Value.Sum, StringComparer.Ordinal);

    private static Dictionary<string, double> Delta(Dictionary<string, double> before, Dictionary<string, double> after) =>
        BacklogLoad.Processors.ToDictionary(f => f, f => after.GetValueOrDefault(f) - before.GetValueOrDefault(f), StringComparer.Ordinal);

    private static string Id(DevHostProcess instance) => instance.Process.Name.Replace("instance ", "", StringComparison.Ordinal);

    private Task Say(string line) => output.WriteLineAsync(line);
}
