using System.Buffers;
using System.IO.Pipelines;
using System.Net;
using Microsoft.Azure.Amqp;
using Microsoft.Azure.Amqp.Transport;

namespace SensorPipeline.EventHubs.Amqp;

/// <summary>An AMQP transport over a duplex pipe: a Kestrel connection whose first bytes were the AMQP protocol
/// header, or a WebSocket turned into a stream. Microsoft.Azure.Amqp drives it with its callback-style reads and
/// writes; the pipe does the buffering (Kestrel bounds it).</summary>
internal sealed class PipeTransport : TransportBase
{
    private readonly PipeReader _reader;
    private readonly PipeWriter _writer;
    private readonly TaskCompletionSource _ended = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private ITimer? _deadline;
    private volatile bool _negotiated;
    private volatile Task _written = Task.CompletedTask;

    public PipeTransport(PipeReader reader, PipeWriter writer, EndPoint? local, EndPoint? remote)
        : base("pipe")
    {
        _reader = reader;
        _writer = writer;
        LocalEndPoint = local?.ToString() ?? "local";
        RemoteEndPoint = remote?.ToString() ?? "remote";
    }

    public override string LocalEndPoint { get; }

    public override string RemoteEndPoint { get; }

    /// <summary>Completes when the transport is closed or aborted: the owner of the pipe may then let it go.</summary>
    public Task Ended => _ended.Task;

    /// <summary>True while a write waits for the peer to read (its socket is backed up).</summary>
    public bool IsBackedUp => !_written.IsCompleted;

    /// <summary>Completes when the pending write, if any, has gone out.</summary>
    public Task Written => _written;

    /// <summary>Aborts the transport unless <see cref="Negotiated"/> is called within <paramref name="deadline"/>: a peer
    /// that stops anywhere between its protocol header and its Open holds nothing for long.</summary>
    public void AbortUnlessNegotiatedWithin(TimeSpan deadline, TimeProvider time)
    {
        _deadline = time.CreateTimer(static state =>
        {
            var transport = (PipeTransport)state!;
            if (!transport._negotiated)
            {
                transport.Abort();
            }
        }, this, deadline, Timeout.InfiniteTimeSpan);
    }

    /// <summary>The connection is open: the negotiation deadline no longer applies.</summary>
    public void Negotiated()
    {
        _negotiated = true;
        _deadline?.Dispose();
    }

    public override void SetMonitor(ITransportMonitor usageMeter)
    {
    }

    public override bool ReadAsync(TransportAsyncCallbackArgs args)
    {
        var read = ReadCoreAsync(args.Buffer, args.Offset, args.Count);
        if (read.IsCompleted)
        {
            Finish(args, read, completedSynchronously: true);
            return false;
        }

        _ = FinishLaterAsync(args, read.AsTask());
        return true;
    }

    public override bool WriteAsync(TransportAsyncCallbackArgs args)
    {
        var write = WriteCoreAsync(args);
        if (write.IsCompleted)
        {
            Finish(args, write, completedSynchronously: true);
            return false;
        }

        var pending = write.AsTask();
        _written = pending;
        _ = FinishLaterAsync(args, pending);
        return true;
    }

    protected override bool OpenInternal() => true;

    protected override bool CloseInternal()
    {
        End();
        return true;
    }

    protected override void AbortInternal() => End();

    private void End()
    {
        _deadline?.Dispose();
        _reader.CancelPendingRead();
        _ended.TrySetResult();
    }

    private async ValueTask<int> ReadCoreAsync(byte[] buffer, int offset, int count)
    {
        var result = await _reader.ReadAsync();
        var data = result.Buffer;
        if (result.IsCanceled || data.IsEmpty)
        {
            // Closed by us (cancelled read) or by the peer (completed): 0 bytes is how the AMQP stack learns of it.
            _reader.AdvanceTo(data.Start);
            return 0;
        }

        var length = (int)Math.Min(count, data.Length);
        var taken = data.Slice(0, length);
        taken.CopyTo(buffer.AsSpan(offset, length));
        _reader.AdvanceTo(taken.End);
        return length;
    }

    private async ValueTask<int> WriteCoreAsync(TransportAsyncCallbackArgs args)
    {
        if (args.Buffer is not null)
        {
            _writer.Write(args.Buffer.AsSpan(args.Offset, args.Count));
        }
        else
        {
            foreach (var piece in args.ByteBufferList)
            {
                _writer.Write(piece.Buffer.AsSpan(piece.Offset, piece.Length));
            }
        }

        var flushed = await _writer.FlushAsync();
        return flushed.IsCompleted || flushed.IsCanceled ? 0 : args.Count;
    }

    private static void Finish(TransportAsyncCallbackArgs args, ValueTask<int> operation, bool completedSynchronously)
    {
        try
        {
            args.BytesTransfered = operation.Result;
            args.Exception = null;
        }
        catch (Exception e)
        {
            args.Exception = e;
        }

        args.CompletedSynchronously = completedSynchronously;
    }

    private static async Task FinishLaterAsync(TransportAsyncCallbackArgs args, Task<int> operation)
    {
        try
        {
            args.BytesTransfered = await operation;
            args.Exception = null;
        }
        catch (Exception e)
        {
            // The AMQP stack closes the connection with it; a failed read or write ends only this connection.
            args.Exception = e;
        }

        args.CompletedSynchronously = false;
        args.CompletedCallback(args);
    }
}
