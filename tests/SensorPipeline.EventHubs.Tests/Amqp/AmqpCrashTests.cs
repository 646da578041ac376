using Azure.Messaging.EventHubs;
using Azure.Messaging.EventHubs.Consumer;
using Azure.Messaging.EventHubs.Producer;

namespace SensorPipeline.EventHubs.Tests.Amqp;

/// <summary>A full disk, then kill -9 of devhost, while the official client sends: every event the client reported sent
/// (settled Accepted) is in the log after a restart on the same data directory — the disposition comes only after the
/// append is durable, and a failed append is Rejected (server-busy), never Accepted.</summary>
public sealed class AmqpCrashTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public async Task Restart_AfterDiskFullThenKillDuringSends_EveryAcknowledgedEventThere()
    {
        var appRoot = Directory.CreateDirectory(Path.Combine(_dir.Path, "app")).FullName;
        var data = Path.Combine(_dir.Path, "data");
        var acknowledged = new System.Collections.Concurrent.ConcurrentBag<string>();
        var enoughSent = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using (var devHost = await RunningDevHost.StartAsync(appRoot, data, RepoLayout.Current.EventHubsConfig))
        {
            await using var producer = new EventHubProducerClient(AmqpPeer.ConnectionString(devHost.BaseAddress), "ingestion",
                new EventHubProducerClientOptions { RetryOptions = AmqpPeer.NoRetries });
            using var stop = new CancellationTokenSource();
            async Task SendLoopAsync(int s)
            {
                for (var i = 0; !stop.IsCancellationRequested; i++)
                {
                    var body = $"s{s}-{i}";
                    try
                    {
                        await producer.SendAsync([new EventData(body)], new SendEventOptions { PartitionId = (s % 4).ToString(System.Globalization.CultureInfo.InvariantCulture) });
                    }
                    catch (Exception e) when (e is EventHubsException or OperationCanceledException or ObjectDisposedException)
                    {
                        return; // devhost died under this send: not acknowledged
                    }

                    acknowledged.Add(body);
                    if (acknowledged.Count >= 200)
                    {
                        enoughSent.TrySetResult();
                    }
                }
            }

            var senders = Enumerable.Range(0, 8).Select(SendLoopAsync).ToArray();
            await enoughSent.Task.WaitAsync(AmqpPeer.Timeout);

            // Every write fails from here: each sender's next send must fail (it does not retry), none may be acknowledged.
            using (var full = await devHost.Client.PutAsync("/admin/eventhubs/disk-full", null))
            {
                full.EnsureSuccessStatusCode();
            }

            var allStopped = Task.WhenAll(senders);
            var stoppedByRefusals = true;
            try
            {
                await allStopped.WaitAsync(TimeSpan.FromSeconds(10));
            }
            catch (TimeoutException)
            {
                stoppedByRefusals = false; // some sender is still being acknowledged on a full disk
            }

            await devHost.KillHardAsync();
            await stop.CancelAsync();
            await allStopped.WaitAsync(AmqpPeer.Timeout);
            Assert.True(stoppedByRefusals, "sends kept being acknowledged while every write failed");
        }

        await using var restarted = await RunningDevHost.StartAsync(appRoot, data, RepoLayout.Current.EventHubsConfig);
        var stored = new HashSet<string>(StringComparer.Ordinal);
        foreach (var partition in new[] { "0", "1", "2", "3" })
        {
            await using var producer = new EventHubProducerClient(AmqpPeer.ConnectionString(restarted.BaseAddress), "ingestion");
            var properties = await producer.GetPartitionPropertiesAsync(partition);
            var count = (int)(properties.LastEnqueuedSequenceNumber + 1);
            foreach (var e in await AmqpPeer.ReadAsync(restarted.BaseAddress, "ingestion", partition, EventPosition.Earliest, count))
            {
                stored.Add(e.EventBody.ToString());
            }
        }

        Assert.True(acknowledged.Count >= 200);
        Assert.DoesNotContain(acknowledged, a => !stored.Contains(a));
    }
}
