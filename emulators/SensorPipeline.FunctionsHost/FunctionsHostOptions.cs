using Microsoft.Extensions.Options;
using Azure.Messaging.EventHubs.Processor;

namespace SensorPipeline.FunctionsHost;

/// <summary>How devhost runs the local Functions host. Bound from the configuration section <c>FunctionsHost</c>
/// (and the devhost command line); validated at start-up by <see cref="FunctionsHostOptionsValidator"/>.</summary>
public sealed class FunctionsHostOptions
{
    /// <summary>The configuration section these options bind from.</summary>
    public const string SectionName = "FunctionsHost";

    /// <summary>Whether devhost runs the function app at all. Default true.</summary>
    public bool Enabled { get; set; } = true;

    /// <summary>The function app folder holding host.json (devhost <c>--app-root</c>). Required; relative paths are
    /// taken from the current directory.</summary>
    public string AppRoot { get; set; } = string.Empty;

    /// <summary>devhost's data folder (<c>--data</c>): the handler's pid file, so a restart stops an orphaned handler.
    /// Checkpoints and ownership are blobs in the app's <c>AzureWebJobsStorage</c>. Required.</summary>
    public string DataDirectory { get; set; } = string.Empty;

    /// <summary>How long the handler may take to start listening, as HttpWorkerOptions.InitializationTimeout.
    /// Default 00:00:30 (30 seconds); from 1 second to 10 minutes.</summary>
    public TimeSpan HandlerStartupTimeout { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>Wait before starting the handler again after it failed to start. Default 00:00:01 (1 second);
    /// from 0 to 1 minute.</summary>
    public TimeSpan HandlerRestartDelay { get; set; } = TimeSpan.FromSeconds(1);

    /// <summary>The Functions host version sent in X-Azure-Functions-HostVersion and User-Agent
    /// (Azure-Functions-Host/{version}). Default "4.1044.100.0", a v4 runtime version.</summary>
    public string HostVersion { get; set; } = "4.1044.100.0";

    /// <summary>A partition with lag whose checkpoint has not moved for longer than this is reported stalled (logged once
    /// when it starts and once when it ends, shown in /status/functions). Default 00:01:00 (60 seconds); from 1 second to
    /// 1 day. A paused function's partitions with lag count as stalled too: nothing is processing them.</summary>
    public TimeSpan StallThreshold { get; set; } = TimeSpan.FromSeconds(60);

    /// <summary>A partition with lag is also reported stalled when its oldest unprocessed event is older than this
    /// fraction of the hub's retention period, whatever its checkpoint does: events that old are about to be removed
    /// unread. Default 0.5; greater than 0 and at most 1.</summary>
    public double StallRetentionFraction { get; set; } = 0.5;

    /// <summary>The id this host's processors write as partition owner in the ownership blobs. Default empty: the single
    /// host inside devhost, owner <c>devhost</c>. Set (e.g. <c>instance-1</c>; no spaces), the host is one instance
    /// among several, each its own process: the SDK's processors balance the partitions among them.</summary>
    public string InstanceId { get; set; } = string.Empty;

    /// <summary>Comma-separated names of the functions this host runs (per-function scaling: an instance runs one
    /// function). Default empty: every function of the app.</summary>
    public string Functions { get; set; } = string.Empty;

    /// <summary>True: run no handler and no processors, only report what separate instance processes do — checkpoints
    /// and ownership read from their blobs (the devhost that serves the emulator to them). Default false.</summary>
    public bool ObserveOnly { get; set; }

    /// <summary>The SDK processor's load-balancing strategy. Default Greedy, as the Functions extension configures the
    /// processor.</summary>
    public LoadBalancingStrategy LoadBalancingStrategy { get; set; } = LoadBalancingStrategy.Greedy;

    /// <summary>Overrides host.json <c>extensions.eventHubs.loadBalancingUpdateInterval</c> (default there 30 s) for
    /// tests and demos; from 10 ms to 10 minutes. Default unset.</summary>
    public TimeSpan? LoadBalancingUpdateInterval { get; set; }

    /// <summary>Overrides host.json <c>extensions.eventHubs.partitionOwnershipExpirationInterval</c> (default there
    /// 2 min); more than the update interval, at most 1 hour. Default unset.</summary>
    public TimeSpan? PartitionOwnershipExpirationInterval { get; set; }

    /// <summary>True: the processors, output bindings and status reach the namespace the app's <c>connection</c> settings
    /// name (a real Event Hubs namespace), not the emulator devhost serves. Default false. <c>./pipeline up
    /// --eventhubs</c> sets it.</summary>
    public bool ExternalNamespace { get; set; }

    /// <summary>How often an observing host re-reads the checkpoint and ownership blobs. Default 00:00:01;
    /// from 50 ms to 1 minute.</summary>
    public TimeSpan ObserveInterval { get; set; } = TimeSpan.FromSeconds(1);

    /// <summary>The names in <see cref="Functions"/>.</summary>
    public IReadOnlyList<string> FunctionNames => Functions.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);

    /// <summary>How often the stall detector looks at every partition (one small read per partition with lag).
    /// Default 00:00:05 (5 seconds); from 100 ms to 1 minute. A stall is seen up to this late.</summary>
    public TimeSpan StallCheckInterval { get; set; } = TimeSpan.FromSeconds(5);
}

/// <summary>Checks <see cref="FunctionsHostOptions"/> once at start-up; messages name the configuration key.</summary>
public sealed class FunctionsHostOptionsValidator : IValidateOptions<FunctionsHostOptions>
{
    private const string P = FunctionsHostOptions.SectionName + ":";

    public ValidateOptionsResult Validate(string? name, FunctionsHostOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        if (!options.Enabled)
        {
            return ValidateOptionsResult.Success;
        }

        var failures = new List<string>();
        AddPathFailures(options, failures);
        AddHandlerFailures(options, failures);
        AddStallFailures(options, failures);
        AddOwnershipFailures(options, failures);
        if (options.ObserveInterval < TimeSpan.FromMilliseconds(50) || options.ObserveInterval > TimeSpan.FromMinutes(1))
        {
            failures.Add($"{P}ObserveInterval must be from 00:00:00.050 to 00:01:00, found {options.ObserveInterval}");
        }

        if (string.IsNullOrWhiteSpace(options.HostVersion))
        {
            failures.Add(P + "HostVersion must not be empty");
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }

    private static void AddPathFailures(FunctionsHostOptions options, List<string> failures)
    {
        if (string.IsNullOrWhiteSpace(options.AppRoot))
        {
            failures.Add(P + "AppRoot (--app-root) is required: the folder holding host.json");
        }

        if (string.IsNullOrWhiteSpace(options.DataDirectory))
        {
            failures.Add(P + "DataDirectory (--data) is required: the handler's pid file is kept there");
        }
    }

    private static void AddHandlerFailures(FunctionsHostOptions options, List<string> failures)
    {
        if (options.HandlerStartupTimeout < TimeSpan.FromSeconds(1) || options.HandlerStartupTimeout > TimeSpan.FromMinutes(10))
        {
            failures.Add($"{P}HandlerStartupTimeout must be from 00:00:01 to 00:10:00, found {options.HandlerStartupTimeout}");
        }

        if (options.HandlerRestartDelay < TimeSpan.Zero || options.HandlerRestartDelay > TimeSpan.FromMinutes(1))
        {
            failures.Add($"{P}HandlerRestartDelay must be from 00:00:00 to 00:01:00, found {options.HandlerRestartDelay}");
        }

    }

    private static void AddStallFailures(FunctionsHostOptions options, List<string> failures)
    {
        if (options.StallThreshold < TimeSpan.FromSeconds(1) || options.StallThreshold > TimeSpan.FromDays(1))
        {
            failures.Add($"{P}StallThreshold must be from 00:00:01 to 1.00:00:00, found {options.StallThreshold}");
        }

        if (!(options.StallRetentionFraction > 0 && options.StallRetentionFraction <= 1))
        {
            failures.Add($"{P}StallRetentionFraction must be greater than 0 and at most 1, found {options.StallRetentionFraction.ToString(System.Globalization.CultureInfo.InvariantCulture)}");
        }

        if (options.StallCheckInterval < TimeSpan.FromMilliseconds(100) || options.StallCheckInterval > TimeSpan.FromMinutes(1))
        {
            failures.Add($"{P}StallCheckInterval must be from 00:00:00.100 to 00:01:00, found {options.StallCheckInterval}");
        }
    }

    private static void AddOwnershipFailures(FunctionsHostOptions options, List<string> failures)
    {
        if (options.InstanceId.Contains(' ', StringComparison.Ordinal))
        {
            failures.Add($"{P}InstanceId must not contain spaces, found '{options.InstanceId}'");
        }

        if (options.LoadBalancingUpdateInterval is { } update && (update < TimeSpan.FromMilliseconds(10) || update > TimeSpan.FromMinutes(10)))
        {
            failures.Add($"{P}LoadBalancingUpdateInterval must be from 00:00:00.010 to 00:10:00, found {update}");
        }

        if (options.PartitionOwnershipExpirationInterval is { } expiration
            && (expiration <= (options.LoadBalancingUpdateInterval ?? TimeSpan.Zero) || expiration > TimeSpan.FromHours(1)))
        {
            failures.Add($"{P}PartitionOwnershipExpirationInterval must be more than LoadBalancingUpdateInterval and at most 01:00:00, found {expiration}");
        }
    }
}
