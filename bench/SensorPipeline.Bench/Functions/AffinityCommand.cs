using Azure.Messaging.EventHubs.Consumer;
using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Splitting;
using SensorPipeline.Protos;

namespace SensorPipeline.Functions.Bench;

/// <summary>
/// <c>./pipeline bench affinity [readings] [instances] [app-root]</c>: the local stack with separate
/// instances per processor, loadgen's fleet sending <c>readings</c>, then every envelope on the processor hubs read back
/// with the official client: on how many partitions, and on how many instances (each partition's owner at the end),
/// each device's readings landed. <c>app-root</c> runs another build's function app (its host.json, function.json and
/// handler), so a build before device affinity is measured by the same bench.
/// </summary>
internal static class AffinityCommand
{
    public static Command Command()
    {
        var readings = Numbers.WholeArgument("readings", "Readings loadgen sends", 20_000, 1, 100_000_000);
        var instances = Numbers.WholeArgument("instances", "Instances per processor function", 2, 1, 32);
        var appRoot = new Argument<DirectoryInfo?>("app-root") { Description = "Another build's function app root (default: this build).", Arity = ArgumentArity.ZeroOrOne };
        var command = new Command("affinity", "On how many processor partitions and instances each device's readings land.") { readings, instances, appRoot };
        command.SetAction((parse, token) => BenchRun.RunAsync("affinity",
            t => RunAsync(parse.GetValue(readings), parse.GetValue(instances), parse.GetValue(appRoot)?.FullName, t), token));
        return command;
    }

    private static async Task<int> RunAsync(int readings, int instances, string? appRoot, CancellationToken cancellationToken)
    {
        var layout = RepoLayout.Discover();
        var data = BenchRun.RunFolder(layout, "affinity");
        var options = new StackOptions { DataDirectory = data, AppRoot = appRoot, MaxAge = TimeSpan.FromHours(1), Instances = new InstanceCount(instances) };
        await using var pipeline = await LocalPipeline.StartAsync(layout, options, cancellationToken);
        Console.WriteLine($"Affinity bench: {instances} instances per processor, app root {appRoot ?? "(this build)"}, {readings:N0} readings, logs {data}/logs");
        var processes = await ProcessesAsync(pipeline, cancellationToken);
        var cpuAtStart = processes.ToDictionary(p => p.Key, p => Cpu(p.Value));
        await SendAsync(pipeline, readings, data, cancellationToken);
        await pipeline.WaitForDrainAsync(TimeSpan.FromMinutes(20), TimeSpan.FromMilliseconds(500), cancellationToken);
        var cpu = processes.ToDictionary(p => p.Key, p => (Cpu(p.Value).Host - cpuAtStart[p.Key].Host, Cpu(p.Value).Handler - cpuAtStart[p.Key].Handler));
        var status = await pipeline.GetFunctionsStatusAsync(cancellationToken);
        var forwarded = 0;
        var readingsOf = new Dictionary<string, int>();
        foreach (var (hub, function) in SensorKindCatalog.Default.All.Select(static k => (k.Hub, k.Processor)))
        {
            var owners = status.Functions.Single(f => f.Name == function).Partitions.ToDictionary(p => p.PartitionId, p => p.Owner ?? "-");
            var (landed, envelopes) = await ReadHubAsync(pipeline.EventHubConnection, hub, cancellationToken);
            forwarded += landed.Count;
            readingsOf[function] = landed.Count;
            Print(hub, landed, envelopes, owners);
        }

        foreach (var (function, list) in processes)
        {
            var invocations = 0L;
            foreach (var instance in list)
            {
                invocations += (await pipeline.GetInstanceStatusAsync(instance.Instance, cancellationToken)).Functions.Single(f => f.Name == function).InvocationsSucceeded;
            }

            var (host, handler) = cpu[function];
            var its = readingsOf.GetValueOrDefault(function, forwarded);
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"  {function}: {invocations:N0} invocations ({its / (double)Math.Max(1, invocations):F1} readings each); CPU per reading on both hubs (send to drain, idle included): handler {handler * 1e6 / forwarded:F1} µs, Functions host instances {host * 1e6 / forwarded:F1} µs"));
        }

        return 0;
    }

    private static (double Host, double Handler) Cpu(List<(DevHostProcess Instance, int HandlerPid)> processes) =>
        (processes.Sum(p => ProcessCpu.ReadSeconds(p.Instance.Process.Id) ?? 0), processes.Sum(p => ProcessCpu.ReadSeconds(p.HandlerPid) ?? 0));

    /// <summary>Each function's instances and their handler processes.</summary>
    private static async Task<Dictionary<string, List<(DevHostProcess Instance, int HandlerPid)>>> ProcessesAsync(LocalPipeline pipeline, CancellationToken cancellationToken)
    {
        var fleet = pipeline.Fleet ?? throw new InvalidOperationException("the stack runs no separate instances");
        var processes = new Dictionary<string, List<(DevHostProcess, int)>>();
        foreach (var function in BacklogLoad.Processors.Prepend("Splitter"))
        {
            processes[function] = [];
            foreach (var instance in fleet.Running(function))
            {
                var status = await pipeline.GetInstanceStatusAsync(instance, cancellationToken);
                processes[function].Add((instance, status.HandlerPid ?? throw new InvalidOperationException($"{instance.Process.Name} reports no handler")));
            }
        }

        return processes;
    }

    private static async Task SendAsync(LocalPipeline pipeline, int readings, string data, CancellationToken cancellationToken)
    {
        await using var loadgen = ChildProcess.Start(new ChildProcessOptions
        {
            Name = "loadgen",
            FileName = "dotnet",
            Arguments = [pipeline.Layout.LoadGenDll, "--connection", pipeline.EventHubConnection, "--count", readings.ToString(CultureInfo.InvariantCulture), "--rate", "1000",
                "--ledger", Path.Combine(data, "ledger.json")],
            LogPath = Path.Combine(data, "logs", "loadgen.log"),
            WorkingDirectory = pipeline.Layout.Root,
        });
        var exit = await loadgen.WaitForExitAsync(cancellationToken);
        if (exit != 0)
        {
            throw new InvalidOperationException($"loadgen exited {exit}: {loadgen.Output}");
        }
    }

    /// <summary>Every (device, partition) pair of the hub's envelopes, read from its start until a quiet second.</summary>
    private static async Task<(List<(string Device, string Partition)> Landed, int Envelopes)> ReadHubAsync(string connection, string hub, CancellationToken cancellationToken)
    {
        await using var consumer = new EventHubConsumerClient(EventHubConsumerClient.DefaultConsumerGroupName, connection, hub);
        var landed = new List<(string, string)>();
        var envelopes = 0;
        var sources = new List<Core.Readings.SourcePosition>();
        var options = new ReadEventOptions { MaximumWaitTime = TimeSpan.FromSeconds(2) };
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        try
        {
            await foreach (var item in consumer.ReadEventsAsync(startReadingAtEarliestEvent: true, options, stop.Token))
            {
                if (item.Data is null)
                {
                    break; // nothing more within the wait: the hub is read to its end
                }

                // Only what a processor would take as an envelope counts (EnvelopeReader's header check).
                var body = item.Data.EventBody.ToArray();
                if (EnvelopeReader.TryReadHeader(body, sources, out _, out _, out _) == Core.Readings.DeadLetterReason.None)
                {
                    envelopes++;
                    landed.AddRange(ForwardEnvelope.Parser.ParseFrom(body).Readings.Select(r => (r.Reading.DeviceId, item.Partition.PartitionId)));
                }
            }
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
        }

        return (landed, envelopes);
    }

    private static void Print(string hub, List<(string Device, string Partition)> landed, int envelopes, Dictionary<string, string> owners)
    {
        var devices = landed.GroupBy(l => l.Device).Select(g => (
            Partitions: g.Select(x => x.Partition).Distinct().Count(),
            Instances: g.Select(x => owners.GetValueOrDefault(x.Partition, "-")).Distinct().Count(),
            Readings: g.Count())).ToList();
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"  {hub}: {landed.Count:N0} readings in {envelopes:N0} envelopes ({landed.Count / (double)Math.Max(1, envelopes):F1} per envelope) of {devices.Count} devices on {owners.Count} partitions owned by {owners.Values.Distinct().Count()} instances at the end; " +
            $"partitions per device mean {devices.Average(d => d.Partitions):F2}, min {devices.Min(d => d.Partitions)}, max {devices.Max(d => d.Partitions)}; " +
            $"instances per device (each partition's owner at the end) mean {devices.Average(d => d.Instances):F2}, max {devices.Max(d => d.Instances)}; readings per device mean {devices.Average(d => d.Readings):F0}"));
    }
}
