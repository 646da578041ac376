using Microsoft.Azure.Amqp;
using Microsoft.Azure.Amqp.Framing;
using Microsoft.Extensions.Logging;

namespace SensorPipeline.EventHubs.Amqp;

/// <summary>A client's receiver link on a consumer group's partition: sends stored events from the filter's position,
/// never more than the credit the client granted (its prefetch) and at most <see cref="AmqpOptions.MaxReceiverBatch"/>
/// per read, so a client that grants no credit holds nothing here. Each message carries x-opt-sequence-number,
/// x-opt-offset (a string), x-opt-enqueued-time and x-opt-partition-key; with the desired capability
/// <c>com.microsoft:enable-receiver-runtime-metric</c> also the partition's last-enqueued delivery annotations.</summary>
/// <remarks>Whatever the credit, a read hands at most <c>maxQueuedBytes</c> of events to the AMQP stack (at least one
/// event), and the next read waits until they left: the link's queue empty (the session window let them go) and the
/// connection's pipe not backed up (the peer reads its socket). A client that grants a million credit and never reads
/// so holds one read's bytes here, not the partition.</remarks>
internal sealed class OutgoingEvents(EventHubsNamespace eventHubs, EntityAddress address, SendingAmqpLink link, LinkAuthorization authorization, int maxBatch, TimeProvider time, ILogger logger,
    PipeTransport? transport = null, int maxQueuedBytes = int.MaxValue) : IDisposable
{
    /// <summary>How often a link whose queue waits on the session window looks again (the window has no event).</summary>
    private static readonly TimeSpan QueuePoll = TimeSpan.FromMilliseconds(20);
    private const string RuntimeMetric = "com.microsoft:enable-receiver-runtime-metric";
    private static readonly TimeSpan ReadWait = TimeSpan.FromSeconds(30);
    private readonly CancellationTokenSource _closed = new();
    /// <summary>Set when the client granted credit; one pending signal is enough (the loop reads the credit itself).</summary>
    private readonly SemaphoreSlim _credit = new(0, 1);
    private static readonly long MinUnixMilliseconds = DateTimeOffset.MinValue.ToUnixTimeMilliseconds();
    private static readonly long MaxUnixMilliseconds = DateTimeOffset.MaxValue.ToUnixTimeMilliseconds();
    private long _deliveryTag;

    /// <summary>Where the first event is; refuses a sequence number beyond the partition's end as Event Hubs does.</summary>
    public static async ValueTask<long> StartOfAsync(EventHubsNamespace eventHubs, EntityAddress address, EventFilter.Position position, CancellationToken cancellationToken)
    {
        var p = eventHubs.GetPartitionProperties(address.Hub, address.PartitionId!);
        var next = p.LastEnqueuedSequenceNumber + 1;
        switch (position.Kind)
        {
            case EventFilter.Kind.Latest:
                return next;
            case EventFilter.Kind.Offset:
                // Offsets are byte positions of events at least one byte long, so "> offset" is ">= offset + 1".
                // long.MaxValue exclusive is past every offset, not (wrapped) before the first.
                return eventHubs.SequenceAtOrAfterOffset(address.Hub, address.PartitionId!, position.Inclusive || position.Value == long.MaxValue ? position.Value : position.Value + 1);
            case EventFilter.Kind.SequenceNumber:
                var from = position.Inclusive || position.Value == long.MaxValue ? position.Value : position.Value + 1; // no wrap to the start
                return from <= next
                    ? Math.Max(from, p.BeginningSequenceNumber)
                    : throw new AmqpException(new Error
                    {
                        Condition = new("com.microsoft:argument-out-of-range"),
                        Description = $"The supplied sequence number '{position.Value}' is invalid. The last sequence number in the system is '{p.LastEnqueuedSequenceNumber}'.",
                    });
            case EventFilter.Kind.EnqueuedTime:
                // Past the range of an instant: before it is the start, after it the end (not an internal error).
                return position.Value < MinUnixMilliseconds ? p.BeginningSequenceNumber
                    : position.Value > MaxUnixMilliseconds ? next
                    : await FirstAfterAsync(eventHubs, address, p.BeginningSequenceNumber, next, position.Value, cancellationToken);
            default:
                return p.BeginningSequenceNumber;
        }
    }

    /// <summary>The send loop: completes when the link closed (or never opened to a loop, closed before it started).</summary>
    internal Task Sending { get; private set; } = Task.CompletedTask;

    public void Start(long from)
    {
        link.Closed += (_, _) => Stop();
        if (link.State is AmqpObjectState.End or AmqpObjectState.Faulted)
        {
            Stop(); // closed before the subscription: the loop ends at once
        }

        link.RegisterCreditListener((_, _, _) => Signal());
        Sending = RunAsync(from);
    }

    /// <summary>Binary search over enqueued times (they never decrease within a partition): the first event enqueued
    /// strictly after <paramref name="unixMilliseconds"/>. The filter is in milliseconds, as the SDKs report enqueued
    /// times, and stored times in ticks: an event of the millisecond T itself is not after T, as Event Hubs reads it.</summary>
    private static async ValueTask<long> FirstAfterAsync(EventHubsNamespace eventHubs, EntityAddress address, long low, long high, long unixMilliseconds, CancellationToken cancellationToken)
    {
        while (low < high)
        {
            var mid = low + ((high - low) / 2);
            var e = await eventHubs.ReadAsync(address.Hub, address.PartitionId!, mid, 1, 1, TimeSpan.Zero, cancellationToken);
            if (e.Count > 0 && e[0].EnqueuedTime.ToUnixTimeMilliseconds() <= unixMilliseconds)
            {
                low = e[0].SequenceNumber + 1;
            }
            else
            {
                high = mid;
            }
        }

        return low;
    }

    private async Task RunAsync(long next)
    {
        var metrics = link.Settings.DesiredCapabilities?.Contains(new Microsoft.Azure.Amqp.Encoding.AmqpSymbol(RuntimeMetric)) == true;
        try
        {
            while (!_closed.IsCancellationRequested)
            {
                var credit = (int)Math.Min(link.LinkCredit, (uint)maxBatch);
                if (credit == 0)
                {
                    await _credit.WaitAsync(_closed.Token);
                    continue;
                }

                if (!authorization.IsValid())
                {
                    link.SafeClose(new AmqpException(AmqpErrorCode.UnauthorizedAccess, $"The token for '{address.Path}' expired and was not renewed on $cbs."));
                    return;
                }

                var events = await eventHubs.ReadAsync(address.Hub, address.PartitionId!, next, 1, credit, ReadWait, _closed.Token);
                var queued = 0L;
                foreach (var stored in events)
                {
                    if (queued >= maxQueuedBytes)
                    {
                        break; // the rest is read again once these left
                    }

                    queued += stored.Body.Length + stored.AmqpEnvelope.Length;
                    var message = AmqpEventCodec.Encode(stored);
                    if (metrics)
                    {
                        AddRuntimeMetrics(message);
                    }

                    link.SendMessageNoWait(message, DeliveryTags.Next(ref _deliveryTag), AmqpConstants.NullBinary);
                    next = stored.SequenceNumber + 1;
                }

                eventHubs.Counters.HandedToReceivers(queued);

                await WhenSentAsync();
            }
        }
        catch (OperationCanceledException) when (_closed.IsCancellationRequested)
        {
            // the link closed
        }
        catch (Exception e) when (e is AmqpException or InvalidOperationException or ObjectDisposedException)
        {
            // The link or connection went away between the credit check and the send.
            AmqpLog.ReceiverEnded(logger, address.Path, e.Message);
            link.SafeClose(e);
        }
        finally
        {
            Dispose();
        }
    }

    /// <summary>Until what the last read handed over left the link and the connection's pipe.</summary>
    private async Task WhenSentAsync()
    {
        while (link.Available > 0 || transport is { IsBackedUp: true })
        {
            // A failed write ends the connection, which closes the link: only waiting here, never throwing.
            await Task.WhenAny(transport is { IsBackedUp: true } pipe ? pipe.Written : Task.Delay(QueuePoll, time)).WaitAsync(_closed.Token);
        }
    }

    /// <summary>Disposed by the send loop when it ends (it is the only user of the token and the signal).</summary>
    public void Dispose()
    {
        _closed.Dispose();
        _credit.Dispose();
    }

    private void Stop()
    {
        try
        {
            _closed.Cancel();
        }
        catch (ObjectDisposedException)
        {
            // the send loop already ended
        }
    }

    private void Signal()
    {
        try
        {
            _credit.Release();
        }
        catch (SemaphoreFullException)
        {
            // already signalled
        }
        catch (ObjectDisposedException)
        {
            // the send loop already ended
        }
    }

    private void AddRuntimeMetrics(AmqpMessage message)
    {
        var p = eventHubs.GetPartitionProperties(address.Hub, address.PartitionId!);
        var map = message.DeliveryAnnotations.Map;
        map["last_enqueued_sequence_number"] = p.LastEnqueuedSequenceNumber;
        map["last_enqueued_offset"] = p.LastEnqueuedOffset.ToString(System.Globalization.CultureInfo.InvariantCulture);
        map["last_enqueued_time_utc"] = p.LastEnqueuedTime.UtcDateTime;
        map["runtime_info_retrieval_time_utc"] = time.GetUtcNow().UtcDateTime;
    }
}
