using Azure.Storage.Blobs;
using Azure.Storage.Blobs.Models;

namespace SensorPipeline.FunctionsHost.Tests;

/// <summary>The SDK's event processor as the host's consumer, over devhost's AMQP endpoint, ownership and checkpoints
/// in blobs on the app's azurite in the Functions extension's layout. The waits are generous: a processor's first
/// claim and connection take seconds on a loaded machine.</summary>
public sealed class ProcessorTests
{
    [Fact]
    public async Task Processor_MaxEventBatchSize_SplitsInOrderAndCheckpointsInTheExtensionsBlobs()
    {
        await using var app = new TestApp("""{"maxEventBatchSize": 10}""");
        Assert.Null(await app.StartAsync());
        var container = Container(app);
        await app.SendAsync("input", "0", Enumerable.Range(0, 25).Select(i => $"p0-{i}").ToArray());
        await app.SendAsync("input", "1", Enumerable.Range(0, 5).Select(i => $"p1-{i}").ToArray());
        await app.WaitUntilAsync(async () => await BlobCheckpointAsync(container, "0") == 24 && await BlobCheckpointAsync(container, "1") == 4, "both partitions checkpointed in blobs", seconds: 120);

        var p0 = app.Records().Where(r => r.PartitionId == "0").ToList();
        Assert.All(p0, r => Assert.InRange(r.SequenceNumbers.Length, 1, 10));
        Assert.Equal(Enumerable.Range(0, 25).Select(i => (long)i), p0.SelectMany(r => r.SequenceNumbers));
        Assert.Equal(Enumerable.Range(0, 5).Select(i => (long)i), app.Records().Where(r => r.PartitionId == "1").SelectMany(r => r.SequenceNumbers));

        var owners = new Dictionary<string, string>();
        await foreach (var blob in container.GetBlobsAsync(BlobTraits.Metadata, BlobStates.None, "127.0.0.1/input/fn/ownership/", CancellationToken.None))
        {
            owners[blob.Name] = blob.Metadata["ownerid"];
        }

        Assert.Equal(["127.0.0.1/input/fn/ownership/0", "127.0.0.1/input/fn/ownership/1"], owners.Keys.Order());
        Assert.All(owners.Values, owner => Assert.Equal("devhost", owner));
        Assert.Equal(24, await app.CheckpointAsync("0"));
    }

    [Fact]
    public async Task Restart_AfterCheckpoints_ResumesFromTheBlobsRedeliveringNothing()
    {
        await using var app = new TestApp("""{"maxEventBatchSize": 10}""");
        Assert.Null(await app.StartAsync());
        var container = Container(app);
        await app.SendAsync("input", "0", "a", "b", "c");
        await app.WaitUntilAsync(async () => await BlobCheckpointAsync(container, "0") == 2, "the first events checkpointed", seconds: 120);
        Assert.Equal(0, await app.TerminateAsync());

        Assert.Null(await app.StartAsync());
        await app.SendAsync("input", "0", "d", "e");
        await app.WaitUntilAsync(async () => await BlobCheckpointAsync(container, "0") == 4, "the later events checkpointed after the restart", seconds: 120);
        Assert.Equal([0L, 1L, 2L, 3L, 4L], app.Records().SelectMany(r => r.SequenceNumbers));
        Assert.Equal(2, app.Records().Select(r => r.Pid).Distinct().Count());
    }

    [Fact]
    public async Task MinEventBatchSize_WaitsUpToMaxWaitTime_ThenDispatchesThePartialBatch()
    {
        await using var app = new TestApp("""{"maxEventBatchSize": 10, "minEventBatchSize": 3, "maxWaitTime": "00:00:04"}""");
        Assert.Null(await app.StartAsync());

        // The first invocation without a checkpoint does not wait (GetAdjustedMaxWaitTime).
        await app.SendAsync("input", "0", "first");
        await app.WaitForRecordsAsync(r => r.Count == 1, "the first event at once");

        // Two events 200 ms apart are held together (fewer than 3) until maxWaitTime passes: one batch of 2.
        await app.SendAsync("input", "0", "second");
        await Task.Delay(200);
        await app.SendAsync("input", "0", "third");
        await app.WaitForRecordsAsync(r => r.Count == 2, "the partial batch after maxWaitTime");
        Assert.Equal([1L, 2L], app.Records()[1].SequenceNumbers);
    }

    private static BlobContainerClient Container(TestApp app) => new(app.StorageConnection, "azure-webjobs-eventhub");

    private static async Task<long?> BlobCheckpointAsync(BlobContainerClient container, string partitionId)
    {
        var blob = container.GetBlobClient($"127.0.0.1/input/fn/checkpoint/{partitionId}");
        if (!(await blob.ExistsAsync()).Value)
        {
            return null;
        }

        var metadata = (await blob.GetPropertiesAsync()).Value.Metadata;
        return long.Parse(metadata["sequencenumber"], System.Globalization.CultureInfo.InvariantCulture);
    }
}
