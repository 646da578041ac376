namespace SensorPipeline.Stack;

/// <summary>The part of devhost's <c>GET /status/functions</c> the stack reads.</summary>
public sealed record FunctionsStatus(int? HandlerPid, int HandlerStarts, IReadOnlyList<FunctionStatusView> Functions)
{
    /// <summary>Checkpoint writes of this host that moved a checkpoint backwards (a separate instance's own count).</summary>
    public long CheckpointRewinds { get; init; }

    /// <summary>The loopback port of the handler this host runs, while it runs.</summary>
    public int? HandlerPort { get; init; }
}

/// <summary>The handler's <c>GET /status/device-states</c>: states pending and written, the measured W.</summary>
public sealed record DeviceStatesStatus(int Pending, long StoredBeforeUnixMs, string MarkId, int UnrecoveredMarks, long Written, long Superseded,
    long DeadLettered, long Failed, long MaxLagMs);

public sealed record FunctionStatusView(string Name, string EventHubName, string ConsumerGroup, bool Paused,
    long InvocationsSucceeded, long InvocationsFailed, long InvocationsRetried, IReadOnlyList<PartitionStatusView> Partitions)
{
    /// <summary>The function's largest succeeded invocations so far (null from a devhost that does not report them).</summary>
    public LargestInvocationsView? Largest { get; init; }

    /// <summary>Distinct owners with an active ownership record (separate instances only).</summary>
    public int Instances { get; init; }
}

/// <summary>Three separate maxima over a function's succeeded invocations: request body bytes, events in one batch,
/// seconds from the request posted to its outputs sent.</summary>
public sealed record LargestInvocationsView(long RequestBytes, long Events, double Seconds);

public sealed record PartitionStatusView(string PartitionId, long? CheckpointSequenceNumber, long LastEnqueuedSequenceNumber, long Lag)
{
    /// <summary>The instance owning the partition (separate instances only; null: none).</summary>
    public string? Owner { get; init; }

    /// <summary>How often the partition's owner changed while devhost watched.</summary>
    public long OwnerChanges { get; init; }

    /// <summary>Whether the host answering owns the partition (a separate instance's own view).</summary>
    public bool OwnedHere { get; init; }
}
