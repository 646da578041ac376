using System.Buffers;
using SensorPipeline.Core.Splitting;

namespace SensorPipeline.Functions.Invocation;

/// <summary>
/// One invocation's trigger events: every body decoded from base64 into its own pooled buffer, each with its source
/// position. Dispose returns the buffers; the events must not be used after that.
/// </summary>
internal sealed class InvocationRequest : IDisposable
{
    private IReadOnlyList<byte[]>? _bodies;

    public InvocationRequest(IReadOnlyList<byte[]>? pooledBodies, IReadOnlyList<InputEvent> events, string partitionId, int retryCount)
    {
        _bodies = pooledBodies;
        Events = events;
        PartitionId = partitionId;
        RetryCount = retryCount;
    }

    public IReadOnlyList<InputEvent> Events { get; }

    /// <summary>The trigger partition (Metadata.PartitionContext.PartitionId).</summary>
    public string PartitionId { get; }

    /// <summary>Metadata.RetryContext.RetryCount: 0 on a first attempt.</summary>
    public int RetryCount { get; }

    /// <summary>
    /// Set when the body was over the handler's budget: <see cref="Events"/> then hold only their positions (empty
    /// bodies), so the function can report the batch's age before it refuses the request by throwing this.
    /// </summary>
    public RequestTooLargeException? Refusal { get; init; }

    public void Dispose()
    {
        if (_bodies is { } bodies)
        {
            _bodies = null;
            foreach (var buffer in bodies)
            {
                ArrayPool<byte>.Shared.Return(buffer);
            }
        }
    }
}
