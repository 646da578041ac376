using Azure.Identity;
using Azure.Messaging.EventHubs;
using Azure.Messaging.EventHubs.Producer;
using SensorPipeline.Core.Splitting;

namespace SensorPipeline.Functions.Forwarding;

/// <summary>
/// Sends one kind's envelopes to its hub, each partition's group to that partition by id, in batches filled up to the
/// hub's size limit. One producer client per hub for the process's life; the hub's partition ids are read once, at the
/// first send, and kept: a partition added to the hub later gets no readings until the handler restarts (a restart
/// then moves most devices, as the key-space slices of <see cref="DevicePartitioner"/> are recut).
/// </summary>
internal sealed class HubSender(EventHubProducerClient client, int maxConcurrentSends, ILogger logger) : IAsyncDisposable
{
    private readonly SemaphoreSlim _readingPartitions = new(1, 1);
    private string[]? _partitionIds;

    public string Hub => client.EventHubName;

    /// <summary>The hub's partition count, read from its properties the first time and cached.</summary>
    public async ValueTask<int> PartitionCountAsync(CancellationToken cancellationToken) => (await PartitionIdsAsync(cancellationToken)).Length;

    /// <summary>Sends every group; returns once the hub acknowledged every event, or throws <see cref="ForwardFailedException"/>.</summary>
    public async Task SendAsync(IReadOnlyList<PartitionEnvelopes> groups, CancellationToken cancellationToken)
    {
        if (groups.Count == 0)
        {
            return;
        }

        var ids = await PartitionIdsAsync(cancellationToken);
        var parallel = new ParallelOptions { MaxDegreeOfParallelism = maxConcurrentSends, CancellationToken = cancellationToken };
        await Parallel.ForEachAsync(groups, parallel, async (group, token) => await SendPartitionAsync(ids[group.Partition], group.Envelopes, token));
    }

    private async Task SendPartitionAsync(string partitionId, IReadOnlyList<ReadOnlyMemory<byte>> envelopes, CancellationToken cancellationToken)
    {
        var options = new CreateBatchOptions { PartitionId = partitionId };
        try
        {
            var batch = await client.CreateBatchAsync(options, cancellationToken);
            try
            {
                foreach (var envelope in envelopes)
                {
                    // The envelope's memory is the splitter's buffer: it stays valid until this send is acknowledged,
                    // because the splitter goes back to its pool only after the invocation answered.
                    var data = new EventData(envelope);
                    if (batch.TryAdd(data))
                    {
                        continue;
                    }

                    if (batch.Count > 0)
                    {
                        await client.SendAsync(batch, cancellationToken);
                        batch.Dispose();
                        batch = await client.CreateBatchAsync(options, cancellationToken);
                    }

                    if (!batch.TryAdd(data))
                    {
                        // EnvelopeBudget keeps every envelope under the 1 MB of Standard and Premium hubs; a hub with a
                        // smaller limit (Basic: 256 KB) cannot take it, and no retry changes that.
                        throw new InvalidOperationException($"an envelope of {envelope.Length} bytes exceeds the hub's largest batch of {batch.MaximumSizeInBytes} bytes");
                    }
                }

                await client.SendAsync(batch, cancellationToken);
            }
            finally
            {
                batch.Dispose();
            }
        }
        catch (Exception e) when (Classify(e) is { } systemic)
        {
            throw new ForwardFailedException(Hub, partitionId, systemic, e);
        }
    }

    private async ValueTask<string[]> PartitionIdsAsync(CancellationToken cancellationToken)
    {
        if (_partitionIds is { } known)
        {
            return known;
        }

        await _readingPartitions.WaitAsync(cancellationToken);
        try
        {
            if (_partitionIds is null)
            {
                // Not cached on failure: the invocation fails and the next one reads again.
                string[] ids;
                try
                {
                    ids = await client.GetPartitionIdsAsync(cancellationToken);
                }
                catch (Exception e) when (Classify(e) is { } systemic)
                {
                    throw new ForwardFailedException(Hub, null, systemic, e);
                }

                FunctionsLog.HubPartitionsRead(logger, Hub, ids.Length);
                _partitionIds = ids;
            }

            return _partitionIds;
        }
        finally
        {
            _readingPartitions.Release();
        }
    }

    /// <summary>Null when the exception is not the hub's (a cancellation, a bug); else whether no retry can fix it.</summary>
    private static bool? Classify(Exception e) => e switch
    {
        EventHubsException hubs => !hubs.IsTransient,
        UnauthorizedAccessException or AuthenticationFailedException or InvalidOperationException => true,
        OperationCanceledException or ObjectDisposedException => null,
        // Socket and timeout errors the client's retries did not ride out.
        System.Net.Sockets.SocketException or TimeoutException or IOException => false,
        _ => null,
    };

    public async ValueTask DisposeAsync()
    {
        await client.DisposeAsync();
        _readingPartitions.Dispose();
    }
}
