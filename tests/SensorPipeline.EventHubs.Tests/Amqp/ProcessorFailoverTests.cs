using Azure.Messaging.EventHubs;
using Azure.Messaging.EventHubs.Producer;
using Azure.Storage.Blobs;
using Azure.Storage.Blobs.Models;
using SensorPipeline.Testing;

namespace SensorPipeline.EventHubs.Tests.Amqp;

/// <summary>
/// Two processes, each the SDK's own <c>PluggableCheckpointStoreEventProcessor</c> with its load balancer, against
/// devhost's AMQP endpoint, with ownership and checkpoints as blobs on azurite in the Azure Functions extension's
/// layout. One is killed with kill -9; its ownership expires (shortened to seconds) and the SDK moves its partitions to
/// the survivor, which resumes from the dead one's checkpoints: nothing is lost, and the only events processed twice
/// are those after the dead one's last checkpoint.
/// </summary>
public sealed class ProcessorFailoverTests(DevHostFixture devHost, AzuriteFixture azurite) : IClassFixture<DevHostFixture>, IClassFixture<AzuriteFixture>
{
    private const string Hub = "weather";
    private const int CheckpointEvery = 8;
    private const int EventsPerPartitionAndPhase = 20;
    private static readonly string[] Partitions = ["0", "1", "2", "3"];
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task KillNine_OneOfTwoProcessors_SurvivorLosesNothingAndRepeatsOnlyTheUncheckpointedTail()
    {
        var connection = AmqpPeer.ConnectionString(devHost.DevHost.BaseAddress);
        await using var processors = new ProcessorProcesses(connection, azurite.ConnectionString, Hub);
        // Azure's are 30 s and 2 min. The expiry is what the survivor waits after the kill, and it must outlast the
        // slowest load-balancing cycle on a busy machine, or ownership moves while both live (more duplicates).
        var expiry = TimeSpan.FromSeconds(10);
        processors.Start("processor-a", CheckpointEvery, expiry, TimeSpan.FromSeconds(1));
        processors.Start("processor-b", CheckpointEvery, expiry, TimeSpan.FromSeconds(1));
        await processors.WaitUntilAsync(() => processors.Owned("processor-a").Count == 2 && processors.Owned("processor-b").Count == 2, "two partitions each", Timeout);
        var ofTheKilled = processors.Owned("processor-a");

        await SendPhaseAsync(connection, "first");
        await processors.WaitUntilAsync(() => processors.Events.Count == Partitions.Length * EventsPerPartitionAndPhase
            && ofTheKilled.All(p => processors.Checkpoints("processor-a").GetValueOrDefault(p) == 15), "the first events and the checkpoints at 15", Timeout);
        await processors.KillAsync("processor-a");
        await SendPhaseAsync(connection, "second");
        await processors.WaitUntilAsync(() => processors.Owned("processor-b").Count == 4 && Partitions.All(p => processors.Checkpoints("processor-b").GetValueOrDefault(p) == 39),
            "the survivor to own every partition and checkpoint the last events", Timeout);

        var events = processors.Events;
        Assert.Equal(
            Partitions.SelectMany(p => Enumerable.Range(0, 2 * EventsPerPartitionAndPhase).Select(s => (p, (long)s))).Order(),
            events.Select(e => (e.Partition, e.Sequence)).Distinct().Order());
        var repeated = events.GroupBy(e => (e.Partition, e.Sequence)).Where(g => g.Count() > 1).ToList();
        var tail = ofTheKilled.SelectMany(p => Enumerable.Range(16, 4).Select(s => (p, (long)s)));
        Assert.Equal(tail.Order(), repeated.Select(g => g.Key).Order());
        Assert.All(repeated, g => Assert.Equal(["processor-a", "processor-b"], g.Select(e => e.Processor)));
        await AssertWebJobsLayoutAsync("processor-b");
    }

    /// <summary>The blobs are the extension's: one empty ownership blob per partition naming the survivor in
    /// <c>ownerid</c>, one empty checkpoint blob per partition with <c>offset</c>, <c>sequencenumber</c> and
    /// <c>clientidentifier</c>, under the lower-cased namespace (the connection string's host), hub and group.</summary>
    private async Task AssertWebJobsLayoutAsync(string survivor)
    {
        var container = new BlobContainerClient(azurite.ConnectionString, "azure-webjobs-eventhub");
        var blobs = new Dictionary<string, BlobItem>();
        await foreach (var blob in container.GetBlobsAsync(BlobTraits.Metadata, BlobStates.None, prefix: null, CancellationToken.None))
        {
            blobs[blob.Name] = blob;
        }

        Assert.Equal(
            Partitions.SelectMany(p => new[] { $"127.0.0.1/weather/$default/checkpoint/{p}", $"127.0.0.1/weather/$default/ownership/{p}" }).Order(),
            blobs.Keys.Order());
        var lastOffsets = new Dictionary<string, string>();
        foreach (var p in Partitions)
        {
            var last = (await AmqpPeer.ReadAsync(devHost.DevHost.BaseAddress, Hub, p, Azure.Messaging.EventHubs.Consumer.EventPosition.FromSequenceNumber(39), 1, "weather-processor")).Single();
            var ownership = blobs[$"127.0.0.1/weather/$default/ownership/{p}"];
            var checkpoint = blobs[$"127.0.0.1/weather/$default/checkpoint/{p}"];
            Assert.Equal(0, ownership.Properties.ContentLength);
            Assert.Equal(survivor, Assert.Single(ownership.Metadata).Value);
            Assert.Equal("ownerid", ownership.Metadata.Keys.Single());
            Assert.Equal(0, checkpoint.Properties.ContentLength);
            Assert.Equal(
                new Dictionary<string, string> { ["offset"] = last.OffsetString, ["sequencenumber"] = "39", ["clientidentifier"] = survivor },
                checkpoint.Metadata);
        }
    }

    /// <summary>Events numbered per partition, one send per partition: the sequence numbers are known in advance.</summary>
    private static async Task SendPhaseAsync(string connection, string phase)
    {
        await using var producer = new EventHubProducerClient(connection, Hub, new EventHubProducerClientOptions { RetryOptions = AmqpPeer.NoRetries });
        foreach (var p in Partitions)
        {
            await producer.SendAsync(
                Enumerable.Range(0, EventsPerPartitionAndPhase).Select(i => new EventData($"{phase}-{p}-{i}")),
                new SendEventOptions { PartitionId = p });
        }
    }
}
