using System.Collections.Concurrent;
using Azure.Messaging.EventHubs;
using Azure.Messaging.EventHubs.Consumer;
using Azure.Messaging.EventHubs.Primitives;
using Azure.Messaging.EventHubs.Processor;
using Azure.Messaging.EventHubs.Producer;

namespace SensorPipeline.EventHubs.Tests.Amqp;

/// <summary>The SDK's own processor and load balancer (<see cref="PluggableCheckpointStoreEventProcessor{TPartition}"/>)
/// against devhost: two processors share the hub's partitions (owner level 0 each, a claimed partition's reader steals
/// the link of the previous owner's), and when one stops the other takes its partitions and every event is processed.
/// The checkpoint store is in memory: the store is not what is tested here, the AMQP endpoint is.</summary>
public sealed class ProcessorTests(DevHostFixture fixture) : IClassFixture<DevHostFixture>
{
    [Fact]
    public async Task TwoProcessors_ShareThePartitions_AndOneTakesOverWhenTheOtherStops()
    {
        var store = new MemoryCheckpointStore();
        var processed = new ConcurrentDictionary<string, string>();
        var options = new EventProcessorOptions
        {
            LoadBalancingUpdateInterval = TimeSpan.FromMilliseconds(500),
            // Nothing here waits for an expiry (a stopping processor gives its partitions up); a short one only makes
            // the SDK report a slow load-balancing cycle as an error when the machine is busy (seen: a 3.17 s cycle).
            PartitionOwnershipExpirationInterval = TimeSpan.FromSeconds(30),
            MaximumWaitTime = TimeSpan.FromMilliseconds(500),
            RetryOptions = AmqpPeer.NoRetries,
        };
        var connection = AmqpPeer.ConnectionString(fixture.DevHost.BaseAddress);
        var a = new Processor(store, "weather-processor", connection, options, processed);
        var b = new Processor(store, "weather-processor", connection, options, processed);
        await a.StartProcessingAsync();
        await b.StartProcessingAsync();

        await WaitUntilAsync(() => store.OwnersOf("weather").Count == 2 && store.OwnersOf("weather").All(o => o.Value == 2));
        await using (var producer = new EventHubProducerClient(connection, "weather"))
        {
            await producer.SendAsync(Enumerable.Range(0, 4).Select(p => new EventData($"first-{p}")), new SendEventOptions { PartitionId = "0" });
            await WaitUntilAsync(() => processed.Count == 4);
            await a.StopProcessingAsync();
            foreach (var p in new[] { "0", "1", "2", "3" })
            {
                await producer.SendAsync([new EventData($"after-{p}")], new SendEventOptions { PartitionId = p });
            }
        }

        await WaitUntilAsync(() => processed.Count == 8);
        Assert.Equal(4, store.OwnersOf("weather")[b.Identifier]);
        Assert.All(new[] { "0", "1", "2", "3" }, p => Assert.Equal(b.Identifier, processed[$"after-{p}"]));
        await b.StopProcessingAsync();
        Assert.DoesNotContain(a.Errors.Concat(b.Errors), e => e is not EventHubsException { Reason: EventHubsException.FailureReason.ConsumerDisconnected });
    }

    /// <summary>Pulsed on every ownership claim and every processed batch.</summary>
    private static readonly Signal Changed = new();

    private static async Task WaitUntilAsync(Func<bool> condition)
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        while (true)
        {
            var next = Changed.Next;
            if (condition())
            {
                return;
            }

            await next.WaitAsync(timeout.Token);
        }
    }

    private sealed class Signal
    {
        private TaskCompletionSource _next = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public Task Next => Volatile.Read(ref _next).Task;

        public void Pulse() => Interlocked.Exchange(ref _next, new(TaskCreationOptions.RunContinuationsAsynchronously)).TrySetResult();
    }

    private sealed class Processor(CheckpointStore store, string consumerGroup, string connection, EventProcessorOptions options, ConcurrentDictionary<string, string> processed)
        : PluggableCheckpointStoreEventProcessor<EventProcessorPartition>(store, 100, consumerGroup, connection, "weather", options)
    {
        public ConcurrentBag<Exception> Errors { get; } = [];

        protected override async Task OnProcessingEventBatchAsync(IEnumerable<EventData> events, EventProcessorPartition partition, CancellationToken cancellationToken)
        {
            EventData? last = null;
            foreach (var e in events)
            {
                processed[e.EventBody.ToString()] = Identifier;
                last = e;
            }

            if (last is not null)
            {
                await UpdateCheckpointAsync(partition.PartitionId, CheckpointPosition.FromEvent(last), cancellationToken);
            }

            Changed.Pulse();
        }

        protected override Task OnProcessingErrorAsync(Exception exception, EventProcessorPartition partition, string operationDescription, CancellationToken cancellationToken)
        {
            Errors.Add(exception);
            return Task.CompletedTask;
        }
    }

    /// <summary>Ownership with optimistic concurrency (a version per record), checkpoints by partition.</summary>
    private sealed class MemoryCheckpointStore : CheckpointStore
    {
        private readonly Lock _lock = new();
        private readonly Dictionary<string, EventProcessorPartitionOwnership> _owners = [];
        private readonly Dictionary<string, EventProcessorCheckpoint> _checkpoints = [];

        public Dictionary<string, int> OwnersOf(string hub)
        {
            lock (_lock)
            {
                var cutoff = DateTimeOffset.UtcNow.AddSeconds(-3);
                return _owners.Values.Where(o => o.EventHubName == hub && o.LastModifiedTime > cutoff && o.OwnerIdentifier.Length > 0)
                    .GroupBy(o => o.OwnerIdentifier).ToDictionary(g => g.Key, g => g.Count());
            }
        }

        public override Task<IEnumerable<EventProcessorPartitionOwnership>> ListOwnershipAsync(string fullyQualifiedNamespace, string eventHubName, string consumerGroup, CancellationToken cancellationToken)
        {
            lock (_lock)
            {
                return Task.FromResult<IEnumerable<EventProcessorPartitionOwnership>>(_owners.Values.Where(o => o.EventHubName == eventHubName && o.ConsumerGroup == consumerGroup).Select(Copy).ToList());
            }
        }

        public override Task<IEnumerable<EventProcessorPartitionOwnership>> ClaimOwnershipAsync(IEnumerable<EventProcessorPartitionOwnership> desiredOwnership, CancellationToken cancellationToken)
        {
            var claimed = new List<EventProcessorPartitionOwnership>();
            lock (_lock)
            {
                foreach (var wanted in desiredOwnership)
                {
                    var key = $"{wanted.EventHubName}/{wanted.ConsumerGroup}/{wanted.PartitionId}";
                    if (_owners.TryGetValue(key, out var current) && current.Version != wanted.Version)
                    {
                        continue; // someone else changed it since the claimant listed it
                    }

                    var next = Copy(wanted);
                    next.Version = Guid.NewGuid().ToString();
                    next.LastModifiedTime = DateTimeOffset.UtcNow;
                    _owners[key] = next;
                    claimed.Add(Copy(next));
                }
            }

            Changed.Pulse();
            return Task.FromResult<IEnumerable<EventProcessorPartitionOwnership>>(claimed);
        }

        public override Task<EventProcessorCheckpoint> GetCheckpointAsync(string fullyQualifiedNamespace, string eventHubName, string consumerGroup, string partitionId, CancellationToken cancellationToken)
        {
            lock (_lock)
            {
                return Task.FromResult(_checkpoints.GetValueOrDefault($"{eventHubName}/{consumerGroup}/{partitionId}")!);
            }
        }

        public override Task UpdateCheckpointAsync(string fullyQualifiedNamespace, string eventHubName, string consumerGroup, string partitionId, string clientIdentifier, CheckpointPosition startingPosition, CancellationToken cancellationToken)
        {
            lock (_lock)
            {
                _checkpoints[$"{eventHubName}/{consumerGroup}/{partitionId}"] = new EventProcessorCheckpoint
                {
                    FullyQualifiedNamespace = fullyQualifiedNamespace,
                    EventHubName = eventHubName,
                    ConsumerGroup = consumerGroup,
                    PartitionId = partitionId,
                    StartingPosition = EventPosition.FromSequenceNumber(startingPosition.SequenceNumber, isInclusive: false),
                };
            }

            return Task.CompletedTask;
        }

        private static EventProcessorPartitionOwnership Copy(EventProcessorPartitionOwnership o) => new()
        {
            FullyQualifiedNamespace = o.FullyQualifiedNamespace,
            EventHubName = o.EventHubName,
            ConsumerGroup = o.ConsumerGroup,
            PartitionId = o.PartitionId,
            OwnerIdentifier = o.OwnerIdentifier,
            LastModifiedTime = o.LastModifiedTime,
            Version = o.Version,
        };
    }
}
