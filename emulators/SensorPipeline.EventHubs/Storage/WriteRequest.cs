using System.Buffers;

namespace SensorPipeline.EventHubs.Storage;

/// <summary>What the writer loop is asked to do: append a batch of encoded records (whose pooled buffer it then owns
/// and returns), or run a periodic fsync or retention pass.</summary>
internal sealed class WriteRequest
{
    public static readonly WriteRequest Flush = new(PartitionLog.RequestKind.Flush);
    public static readonly WriteRequest Retention = new(PartitionLog.RequestKind.Retention);

    public WriteRequest(byte[] buffer, int length, int eventCount)
    {
        Kind = PartitionLog.RequestKind.Append;
        Buffer = buffer;
        Length = length;
        EventCount = eventCount;
        Completion = new TaskCompletionSource<AppendResult>(TaskCreationOptions.RunContinuationsAsynchronously);
    }

    private WriteRequest(PartitionLog.RequestKind kind)
    {
        Kind = kind;
        Buffer = [];
    }

    public PartitionLog.RequestKind Kind { get; }

    public byte[] Buffer { get; private set; }

    public int Length { get; }

    public int EventCount { get; }

    public TaskCompletionSource<AppendResult>? Completion { get; }

    public AppendResult? Result { get; set; }

    public void ReturnBuffer()
    {
        if (Buffer.Length > 0)
        {
            ArrayPool<byte>.Shared.Return(Buffer);
            Buffer = [];
        }
    }
}
