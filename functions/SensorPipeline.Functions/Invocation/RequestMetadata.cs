using System.Text.Json;

namespace SensorPipeline.Functions.Invocation;

/// <summary>
/// The request's metadata the handler uses — <c>Metadata.PartitionContext</c>, <c>SequenceNumberArray</c>,
/// <c>EnqueuedTimeUtcArray</c> and <c>RetryContext</c> — as the streaming parser meets it. A mutable struct held in a
/// field of <see cref="RequestStreamParser"/>, so a request allocates nothing more for it.
/// </summary>
internal struct RequestMetadata : IDisposable
{
    private string? _partitionId;
    private PooledText _sequences;
    private PooledText _enqueued;

    public int RetryCount { get; private set; }

    /// <summary>The partition the events come from; missing is an error of the request.</summary>
    public readonly string PartitionId => _partitionId ?? throw new InvalidInvocationException("Metadata.PartitionContext.PartitionId is missing.");

    /// <summary>Whether the property name under the reader is one of the metadata the handler reads.</summary>
    public static bool IsRead(ref Utf8JsonReader reader) =>
        reader.ValueTextEquals("PartitionContext"u8) || reader.ValueTextEquals("SequenceNumberArray"u8)
        || reader.ValueTextEquals("EnqueuedTimeUtcArray"u8) || reader.ValueTextEquals("RetryContext"u8);

    public readonly long[] SequenceNumbers() => InvocationRequestReader.ReadSequenceNumbers(_sequences);

    public readonly long[] EnqueuedTimes() => InvocationRequestReader.ReadEnqueuedTimes(_enqueued);

    /// <summary>
    /// The value of the metadata property under the reader (see <see cref="IsRead"/>): small, so read only once it is
    /// wholly in the window, then parsed on its own as a complete document (a reader over partial data cannot skip inside
    /// it). False, with nothing changed, while the value is not whole; otherwise the reader is moved past it.
    /// </summary>
    public bool TryRead(ref Utf8JsonReader reader, ReadOnlySpan<byte> window)
    {
        var probe = reader;
        if (!probe.TrySkip())
        {
            return false;
        }

        var start = (int)reader.BytesConsumed;
        while (JsonBytes.IsWhitespace(window[start]))
        {
            start++;
        }

        var text = window[start..(int)probe.BytesConsumed];
        var value = new Utf8JsonReader(text);
        value.Read();
        if (reader.ValueTextEquals("PartitionContext"u8))
        {
            _partitionId = InvocationRequestReader.ReadPartitionId(ref value, text) ?? _partitionId;
        }
        else if (reader.ValueTextEquals("SequenceNumberArray"u8))
        {
            _sequences.Dispose();
            _sequences = PooledText.From(ref value, text, "Metadata.SequenceNumberArray");
        }
        else if (reader.ValueTextEquals("EnqueuedTimeUtcArray"u8))
        {
            _enqueued.Dispose();
            _enqueued = PooledText.From(ref value, text, "Metadata.EnqueuedTimeUtcArray");
        }
        else
        {
            RetryCount = InvocationRequestReader.ReadRetryCount(ref value);
        }

        reader = probe;
        return true;
    }

    public void Dispose()
    {
        _sequences.Dispose();
        _enqueued.Dispose();
    }
}
