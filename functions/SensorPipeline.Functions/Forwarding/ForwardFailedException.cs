namespace SensorPipeline.Functions.Forwarding;

/// <summary>
/// A send of the splitter's envelopes (or the read of a hub's partitions before it) failed after the client's own
/// retries: the invocation fails and the host re-runs the batch before its checkpoint moves. <see cref="Systemic"/>
/// when no retry can fix it (the hub does not exist, the identity may not send): retried all the same, and loud.
/// </summary>
internal sealed class ForwardFailedException(string hub, string? partitionId, bool systemic, Exception inner)
    : Exception($"sending envelopes to hub '{hub}'{(partitionId is null ? "" : $" partition {partitionId}")} failed{(systemic ? " and no retry can fix it" : "")}: {inner.Message}", inner)
{
    public string Hub { get; } = hub;

    public bool Systemic { get; } = systemic;
}
