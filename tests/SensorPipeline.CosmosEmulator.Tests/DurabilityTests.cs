using System.Collections.Concurrent;
using Microsoft.Azure.Cosmos;

namespace SensorPipeline.CosmosEmulator.Tests;

/// <summary>The store survives its process: a restart and a kill -9 mid-stream (Always durability) lose no
/// acknowledged write.</summary>
public sealed class DurabilityTests
{
    [Fact]
    public async Task Kill_MidStream_LosesNoAcknowledgedWrite()
    {
        var data = EmulatorClients.NewDataDirectory();
        var acknowledged = new ConcurrentDictionary<string, int>();
        await using (var emulator = await CosmosEmulatorProcess.StartAsync(data, settings: ["Cosmos:Durability=Always"]))
        {
            using var client = emulator.CreateClient();
            Database database = await client.CreateDatabaseIfNotExistsAsync("crash");
            Container container = await database.CreateContainerIfNotExistsAsync("items", "/deviceId");
            var enough = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            using var stop = new CancellationTokenSource();
            var writers = Enumerable.Range(0, 8).Select(w => Task.Run(async () =>
            {
                for (var i = 0; !stop.IsCancellationRequested; i++)
                {
                    var id = $"w{w}-{i}";
                    try
                    {
                        await container.UpsertItemAsync(new Item(id, $"dev-{w}", i), new PartitionKey($"dev-{w}"), cancellationToken: stop.Token);
                    }
                    catch (Exception e) when (e is CosmosException or HttpRequestException or OperationCanceledException)
                    {
                        return; // the process is gone: this write was never acknowledged
                    }

                    acknowledged[id] = i;
                    if (acknowledged.Count >= 400)
                    {
                        enough.TrySetResult();
                    }
                }
            })).ToArray();

            await enough.Task.WaitAsync(TimeSpan.FromSeconds(120));
            await emulator.Process.KillAsync();
            await stop.CancelAsync();
            await Task.WhenAll(writers).WaitAsync(TimeSpan.FromSeconds(120));
        }

        await using var restarted = await CosmosEmulatorProcess.StartAsync(data);
        using var reader = restarted.CreateClient();
        var items = reader.GetContainer("crash", "items");
        foreach (var (id, seq) in acknowledged)
        {
            var read = await items.ReadItemAsync<Item>(id, new PartitionKey($"dev-{id[1..id.IndexOf('-', StringComparison.Ordinal)]}"));
            Assert.Equal(seq, read.Resource.Seq);
        }
    }

    [Fact]
    public async Task Restart_OnTheSameData_KeepsDatabasesContainersAndDocuments()
    {
        var data = EmulatorClients.NewDataDirectory();
        string etag;
        await using (var emulator = await CosmosEmulatorProcess.StartAsync(data))
        {
            using var client = emulator.CreateClient();
            Database database = await client.CreateDatabaseIfNotExistsAsync("keep");
            Container container = await database.CreateContainerIfNotExistsAsync("items", "/deviceId");
            await container.CreateItemAsync(new Item("gone", "d", 0), new PartitionKey("d"));
            etag = (await container.UpsertItemAsync(new Item("kept", "d", 7), new PartitionKey("d"))).ETag;
            await container.DeleteItemAsync<Item>("gone", new PartitionKey("d"));
        }

        await using var restarted = await CosmosEmulatorProcess.StartAsync(data);
        using var reader = restarted.CreateClient();
        var items = reader.GetContainer("keep", "items");
        var kept = await items.ReadItemAsync<Item>("kept", new PartitionKey("d"));
        Assert.Equal(7, kept.Resource.Seq);
        Assert.Equal(etag, kept.ETag);
        var gone = await Assert.ThrowsAsync<CosmosException>(() => items.ReadItemAsync<Item>("gone", new PartitionKey("d")));
        Assert.Equal(HttpStatusCode.NotFound, gone.StatusCode);
    }

    public sealed record Item(string id, string deviceId, int Seq);
}
