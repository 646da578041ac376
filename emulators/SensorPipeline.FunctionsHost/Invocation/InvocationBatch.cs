using SensorPipeline.FunctionsHost.Config;
using SensorPipeline.FunctionsHost.Hubs;

namespace SensorPipeline.FunctionsHost.Invocation;

/// <summary>The RetryContext the host adds to Metadata when the function has a retry policy: present from the first
/// attempt (RetryCount 0, no exception), then the attempt number and the previous attempt's failure.</summary>
internal sealed record RetryState(int RetryCount, int MaxRetryCount, Exception? LastFailure);

/// <summary>One invocation: the events of one partition for one function, and the values the host computes
/// per invocation (sys.UtcNow, sys.RandGuid, IsCheckpointingAfterInvocation).</summary>
internal sealed record InvocationBatch(
    FunctionDefinition Function,
    string PartitionId,
    IReadOnlyList<ReceivedEvent> Events,
    bool IsCheckpointingAfterInvocation,
    RetryState? Retry,
    DateTime UtcNow,
    Guid RandGuid);
