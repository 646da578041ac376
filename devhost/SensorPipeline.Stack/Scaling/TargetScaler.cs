using System.Net.Http.Json;
using Azure;
using Azure.Messaging.EventHubs;
using System.Text.Json;

namespace SensorPipeline.Stack.Scaling;

/// <summary>What the scaler decides from and how fast.</summary>
public sealed record TargetScalerOptions
{
    /// <summary>Time between decisions. Default 5 s.</summary>
    public TimeSpan DecisionInterval { get; init; } = TimeSpan.FromSeconds(5);

    /// <summary>How long after the last change of a function's instance count it may scale in. Default 60 s.</summary>
    public TimeSpan ScaleInCoolDown { get; init; } = TimeSpan.FromSeconds(60);

    /// <summary>Most instances added per decision. Default 4, as target-based scaling adds.</summary>
    public int MaxScaleOutStep { get; init; } = 4;

    /// <summary>Fewest instances per function. Default 1 (locally a function never scales to zero: nothing would
    /// watch its backlog but this scaler, and a cold start per burst would dominate).</summary>
    public int MinInstances { get; init; } = 1;
}

/// <summary>Target-based scaling per function as "Target-based scaling" describes it for Event Hubs
/// (https://learn.microsoft.com/azure/azure-functions/functions-target-based-scaling): desired instances = unprocessed
/// events ÷ target executions per instance, the target being host.json <c>targetUnprocessedEventThreshold</c> when set,
/// else <c>maxEventBatchSize</c>; never more than the partition count, rounded up to a count that spreads the
/// partitions evenly (as the extension's <c>TargetUnprocessedEventThreshold</c> documentation says); at most
/// <see cref="TargetScalerOptions.MaxScaleOutStep"/> added per decision; scale-in only after a cool-down since the last
/// change. The functions, their hubs, consumer groups and targets come from devhost's <c>/status/functions</c>; the
/// backlog, as the scale controller reads it, from <c>$management</c> and the checkpoint blobs
/// (<see cref="EventHubsBacklog"/>). It acts through an <see cref="InstanceFleet"/>.</summary>
public sealed class TargetScaler(Uri devhost, InstanceFleet fleet, TargetScalerOptions options, HttpClient http, EventHubsBacklog backlog)
{
    private static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web);
    private readonly Dictionary<string, DateTimeOffset> _lastChange = new(StringComparer.OrdinalIgnoreCase);
    private readonly List<string> _decisions = [];

    /// <summary>Every decision that changed a count: time, function, unprocessed events, from → to.</summary>
    public IReadOnlyList<string> Decisions => _decisions;

    /// <summary>The pure rule: the next instance count for one function.</summary>
    public static int Decide(long unprocessed, int targetPerInstance, int partitionCount, int current, bool coolDownOver, TargetScalerOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentOutOfRangeException.ThrowIfLessThan(targetPerInstance, 1);
        ArgumentOutOfRangeException.ThrowIfLessThan(partitionCount, 1);
        var desired = (int)Math.Min(partitionCount, Math.Max(options.MinInstances, Math.Ceiling(unprocessed / (double)targetPerInstance)));

        // Round up to a count that divides the partitions: 3 instances over 4 partitions would leave one with twice
        // the work of the others.
        while (desired < partitionCount && partitionCount % desired != 0)
        {
            desired++;
        }

        if (desired > current)
        {
            return Math.Min(desired, current + options.MaxScaleOutStep);
        }

        return desired < current && coolDownOver ? desired : current;
    }

    /// <summary>Decides every interval until cancelled; a failed look (devhost busy) is retried at the next one.</summary>
    public async Task RunAsync(CancellationToken cancellationToken)
    {
        using var timer = new PeriodicTimer(options.DecisionInterval);
        try
        {
            do
            {
                try
                {
                    await DecideOnceAsync(cancellationToken);
                }
                catch (Exception e) when (e is HttpRequestException or TaskCanceledException or EventHubsException or RequestFailedException && !cancellationToken.IsCancellationRequested)
                {
                    // devhost, the namespace or Storage did not answer this time (refused, or timed out on a busy
                    // machine); the backlog is still there at the next decision.
                }
            }
            while (await timer.WaitForNextTickAsync(cancellationToken));
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // Stopped with the stack.
        }
    }

    /// <summary>One decision for every function.</summary>
    public async Task DecideOnceAsync(CancellationToken cancellationToken)
    {
        var status = await http.GetFromJsonAsync<StatusView>(new Uri(devhost, "status/functions"), Json, cancellationToken)
            ?? throw new HttpRequestException("devhost answered no status");
        foreach (var function in status.Functions)
        {
            var (unprocessed, partitions) = await backlog.ReadAsync(function.EventHubName, function.ConsumerGroup, cancellationToken);
            var current = fleet.Count(function.Name);
            var now = DateTimeOffset.UtcNow;
            var coolDownOver = !_lastChange.TryGetValue(function.Name, out var last) || now - last >= options.ScaleInCoolDown;
            var next = Decide(unprocessed, Math.Max(1, function.TargetEventsPerInstance), Math.Max(1, partitions), current, coolDownOver, options);
            if (next != current)
            {
                _decisions.Add($"{now:HH:mm:ss.f} {function.Name}: {unprocessed:N0} unprocessed → {current} to {next} instances");
                await fleet.ScaleToAsync(function.Name, next, cancellationToken);
                _lastChange[function.Name] = DateTimeOffset.UtcNow;
            }
        }
    }

    private sealed record StatusView(IReadOnlyList<FunctionView> Functions);

    private sealed record FunctionView(string Name, string EventHubName, string ConsumerGroup, int TargetEventsPerInstance);
}
