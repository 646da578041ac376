namespace SensorPipeline.Functions.Bench;

internal sealed partial class ScaleBench
{
    /// <summary>The function whose instance is killed: the weather hub carries half the readings, like the seismic one.</summary>
    private const string Victim = "WeatherProcessor";

    /// <summary>
    /// kill -9 of the oldest WeatherProcessor instance and its handler while loadgen sends <see cref="ScaleArguments.KillReadings"/>,
    /// once it owns partitions and has served an invocation of this load; then, per partition it owned, the time from
    /// the kill until a surviving instance reports owning it (each survivor's own status, polled every 100 ms), and
    /// the events redelivered: envelopes the WeatherProcessor handlers received during the phase minus those appended
    /// to the weather hub. The killed handler's last metric period never reaches devhost, so that count is a lower bound.
    /// </summary>
    private async Task<RebalanceStep> RebalanceAsync(int n, CancellationToken cancellationToken)
    {
        var victim = Fleet.Running(Victim)[0];
        var victimId = Id(victim);
        var appendedBefore = Appended(await pipeline.GetFunctionsStatusAsync(cancellationToken));
        var eventsBefore = await EventsReceivedAsync(cancellationToken);
        var servedBefore = (await pipeline.GetInstanceStatusAsync(victim, cancellationToken)).Functions.Sum(f => f.InvocationsSucceeded);

        var prefix = string.Create(CultureInfo.InvariantCulture, $"kill{n}");
        var ledger = Path.Combine(pipeline.Options.DataDirectory, $"ledger-{prefix}.json");
        await Say($"{n} per processor: loadgen sends {arguments.KillReadings:N0} readings; {victimId} is killed once it serves them …");
        var load = BacklogLoad.SendAsync(pipeline, arguments.KillReadings, arguments.ReadingsPerEvent, arguments.Devices, prefix, ledger, cancellationToken);
        var owned = await OwnedWhileServingAsync(victim, servedBefore, load, cancellationToken);

        var loadAtKill = ProcessCpu.ReadLoadAverage();
        var sinceKill = Stopwatch.StartNew();
        var killed = await Fleet.KillOneAsync(Victim);
        if (killed != victimId)
        {
            throw new InvalidOperationException($"the fleet killed {killed}, not {victimId}");
        }

        var reowned = await ReownedAsync(owned, sinceKill, cancellationToken);
        await load;
        await Say(string.Create(CultureInfo.InvariantCulture,
            $"{n} per processor: {victimId}'s partitions {string.Join(", ", owned)} owned again after {string.Join(", ", reowned.Values.Select(r => r.Seconds.ToString("F1", CultureInfo.InvariantCulture) + " s"))}; draining …"));
        await pipeline.WaitForDrainAsync(TimeSpan.FromMinutes(30), TimeSpan.FromMilliseconds(250), cancellationToken);
        var loadAtEnd = ProcessCpu.ReadLoadAverage();
        await pipeline.WaitForLastMetricsAsync(cancellationToken);
        var status = await pipeline.GetFunctionsStatusAsync(cancellationToken);
        var redelivered = await EventsReceivedAsync(cancellationToken) - eventsBefore - (Appended(status) - appendedBefore);
        long rewinds = 0;
        foreach (var survivor in Fleet.Running(Victim))
        {
            rewinds += (await pipeline.GetInstanceStatusAsync(survivor, cancellationToken)).CheckpointRewinds;
        }

        var changes = status.Functions.Single(f => f.Name == Victim).Partitions.Where(p => owned.Contains(p.PartitionId)).ToDictionary(p => p.PartitionId, p => p.OwnerChanges);
        var (exit, verdict) = await Demo.VerifyAsync(pipeline, ledger, Path.Combine(pipeline.Options.DataDirectory, $"verdict-{prefix}.json"), cancellationToken);
        return new RebalanceStep(n, victimId, reowned, changes, redelivered, rewinds, new Loads(loadAtKill, loadAtKill, loadAtEnd), new Verification(exit, verdict));
    }

    /// <summary>The victim's own partitions, once it owns some and has served an invocation since <paramref name="servedBefore"/>.</summary>
    private async Task<IReadOnlyList<string>> OwnedWhileServingAsync(DevHostProcess victim, long servedBefore, Task load, CancellationToken cancellationToken)
    {
        var status = await Eventually.ValueAsync(async token =>
        {
            var status = await pipeline.GetInstanceStatusAsync(victim, token);
            if (load.IsCompleted && status.Functions.All(f => f.Partitions.All(p => p.Lag == 0)) && !Serving(status))
            {
                await load; // loadgen's failure, if that is why
                throw new InvalidOperationException($"{Id(victim)} served none of the load (--kill-readings too small?)");
            }

            return status;
        }, Serving, $"{Id(victim)} to own a partition while serving", TimeSpan.FromMinutes(5), Poll, cancellationToken: cancellationToken);
        return [.. status.Functions.SelectMany(f => f.Partitions).Where(p => p.OwnedHere).Select(p => p.PartitionId)];

        bool Serving(FunctionsStatus status) =>
            status.Functions.Any(f => f.Partitions.Any(p => p.OwnedHere)) && status.Functions.Sum(f => f.InvocationsSucceeded) > servedBefore;
    }

    /// <summary>Per partition of <paramref name="owned"/>, the time since the kill until a survivor owns it, and which.</summary>
    private async Task<Dictionary<string, (double Seconds, string Owner)>> ReownedAsync(IReadOnlyList<string> owned, Stopwatch sinceKill, CancellationToken cancellationToken)
    {
        var reowned = new Dictionary<string, (double Seconds, string Owner)>(StringComparer.Ordinal);
        var limit = arguments.Expiration * 3 + TimeSpan.FromMinutes(1);
        var survivors = Fleet.Running(Victim).ToList();
        // Each poll notes when a survivor first owned each partition; the wait ends once every one has an owner.
        await Eventually.UntilAsync(async token =>
        {
            foreach (var survivor in survivors)
            {
                var status = await pipeline.GetInstanceStatusAsync(survivor, token);
                var seconds = sinceKill.Elapsed.TotalSeconds;
                foreach (var partition in status.Functions.SelectMany(f => f.Partitions).Where(p => p.OwnedHere && owned.Contains(p.PartitionId)))
                {
                    reowned.TryAdd(partition.PartitionId, (seconds, Id(survivor)));
                }
            }

            return reowned.Count == owned.Count;
        }, "a survivor owning each of the victim's partitions", sinceKill.Elapsed < limit ? limit - sinceKill.Elapsed : TimeSpan.Zero, Poll,
            () => $"partitions {string.Join(", ", owned.Except(reowned.Keys))} had no owner {limit.TotalSeconds:N0} s after the kill", cancellationToken);
        return reowned;
    }

    private async Task<double> EventsReceivedAsync(CancellationToken cancellationToken) =>
        (await BacklogLoad.MetricAsync(pipeline, Core.Telemetry.MetricNames.EventsReceived, cancellationToken)).GetValueOrDefault(Victim).Sum;

    /// <summary>Envelopes appended to the victim's hub so far (its partitions' last sequence numbers, +1 each).</summary>
    private static long Appended(FunctionsStatus status) =>
        status.Functions.Single(f => f.Name == Victim).Partitions.Sum(p => p.LastEnqueuedSequenceNumber + 1);
}
