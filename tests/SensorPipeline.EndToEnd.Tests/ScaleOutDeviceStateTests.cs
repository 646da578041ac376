namespace SensorPipeline.EndToEnd.Tests;

/// <summary>
/// Newer-wins on <c>devices</c> across instances: two WeatherProcessor instances, each its own <c>devhost instance</c>
/// process with the real handler, own different partitions of the weather hub, and the same devices' readings arrive on
/// both with interleaved sequences. Every device must end at its highest-sequence reading.
/// </summary>
[Collection(StackCollections.Readings)]
public sealed class ScaleOutDeviceStateTests
{
    private const string Function = "WeatherProcessor";
    private const int Devices = 12;

    [Fact]
    public async Task TwoInstancesOnDifferentPartitions_SameDevicesInterleaved_DevicesKeepTheHighestSequence()
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(6));
        // No instance from the stack: only the function under test gets its two, so two cores start two handlers, not six.
        // Ownership cycles of 200 ms (Azure's 30 s / 2 min would make the test wait for the balance); records expire after
        // 10 s, so an instance held up for seconds on a loaded machine keeps its partitions (nobody is killed here).
        await using var stack = await RawSendPipeline.StartAsync("scaleout", new InstanceCount(0),
            ["FunctionsHost:LoadBalancingUpdateInterval=00:00:00.200", "FunctionsHost:PartitionOwnershipExpirationInterval=00:00:10"],
            timeout.Token);
        var pipeline = stack.Pipeline;
        await pipeline.Fleet!.ScaleToAsync(Function, 2, timeout.Token);
        IReadOnlyDictionary<string, PartitionStatusView> balanced = new Dictionary<string, PartitionStatusView>();
        await WaitUntilAsync(async () =>
        {
            var partitions = await PartitionsAsync(pipeline, timeout.Token);
            balanced = partitions.ToDictionary(p => p.PartitionId);
            var byOwner = partitions.Where(p => p.Owner is not null).GroupBy(p => p.Owner).ToList();
            return byOwner.Count == 2 && byOwner.All(g => g.Count() == 2);
        }, "two instances owning two weather partitions each", timeout.Token);
        var a = balanced.Keys.Order(StringComparer.Ordinal).First();
        var b = balanced.Values.First(p => p.Owner != balanced[a].Owner).PartitionId;

        var run = Guid.NewGuid().ToString("N")[..6];
        var x = Enumerable.Range(0, Devices / 2).Select(i => $"x-{run}-{i}").ToList();
        var y = Enumerable.Range(0, Devices / 2).Select(i => $"y-{run}-{i}").ToList();
        var observed = DateTimeOffset.UtcNow.AddMinutes(-2);
        int[] high = [2, 4, 6, 8, 10, 12, 14, 16, 18, 20];
        int[] low = [1, 3, 5, 7, 9, 11, 13, 15, 17, 19];

        // Why this can fail: each device's highest sequence (20) is written first, by one instance, and its older readings
        // (up to 19) are written after it, by the other instance, on its own partition. A store where the last writer wins
        // would end every device at 19; only the guard keeps 20. Half the devices go one way, half the other, so both
        // instances write a newer state first and try an older one later.
        await Task.WhenAll(
            SendAsync(stack, pipeline, a, Envelope(x, high, observed), timeout.Token),
            SendAsync(stack, pipeline, b, Envelope(y, high, observed), timeout.Token));
        await AssertStatesAsync(pipeline, [.. x, .. y], 20, timeout.Token);
        await Task.WhenAll(
            SendAsync(stack, pipeline, b, Envelope(x, low, observed), timeout.Token),
            SendAsync(stack, pipeline, a, Envelope(y, low, observed), timeout.Token));
        await AssertStatesAsync(pipeline, [.. x, .. y], 20, timeout.Token);

        // Then both partitions at once, every device on both, sequences interleaved: the highest (26) is on b.
        await Task.WhenAll(
            SendAsync(stack, pipeline, a, Envelope([.. x, .. y], [21, 23, 25], observed), timeout.Token),
            SendAsync(stack, pipeline, b, Envelope([.. x, .. y], [22, 24, 26], observed), timeout.Token));
        await AssertStatesAsync(pipeline, [.. x, .. y], 26, timeout.Token);

        // The two partitions stayed with their two different instances throughout.
        var after = (await PartitionsAsync(pipeline, timeout.Token)).ToDictionary(p => p.PartitionId);
        foreach (var partition in new[] { a, b })
        {
            Assert.Equal(balanced[partition].Owner, after[partition].Owner);
            Assert.Equal(balanced[partition].OwnerChanges, after[partition].OwnerChanges);
        }
    }

    /// <summary>One weather envelope, as the splitter writes it, holding each device's readings of these sequences.</summary>
    private static byte[] Envelope(IReadOnlyList<string> devices, int[] sequences, DateTimeOffset observed) =>
        RawSendPipeline.WeatherEnvelope([.. sequences.SelectMany(sequence => devices.Select(device =>
            // Observed time rises with the sequence: newer-wins orders by observed time first.
            RawSendPipeline.Weather(device, (ulong)sequence, observed.AddSeconds(sequence), temperatureC: sequence, longitude: -122.3 + (sequence / 1000.0))))]);

    /// <summary>Sends one envelope to a weather partition and waits until that partition's owner has checkpointed it:
    /// the batch is stored, device states included.</summary>
    private static async Task SendAsync(RawSendPipeline stack, LocalPipeline pipeline, string partition, byte[] envelope, CancellationToken cancellationToken)
    {
        var sequence = await stack.SendAsync($"weather/partitions/{partition}/messages", envelope, cancellationToken);
        await WaitUntilAsync(async () => (await PartitionsAsync(pipeline, cancellationToken)).Single(p => p.PartitionId == partition).CheckpointSequenceNumber >= sequence,
            string.Create(CultureInfo.InvariantCulture, $"weather partition {partition} checkpointed past {sequence}"), cancellationToken);
    }

    private static async Task AssertStatesAsync(LocalPipeline pipeline, IReadOnlyList<string> devices, ulong expected, CancellationToken cancellationToken)
    {
        using var client = pipeline.CreateCosmosClient();
        var container = client.GetContainer("scaleout", "devices");
        Assert.Null(await DeviceStatesSettled.WaitAsync(container, DeviceStatesSettled.DefaultTimeout, TimeProvider.System, cancellationToken));
        foreach (var device in devices)
        {
            using var response = await container.ReadItemStreamAsync(device, new PartitionKey(device), cancellationToken: cancellationToken);
            Assert.True(response.StatusCode == HttpStatusCode.OK, $"devices/{device}: {response.StatusCode}");
            using var document = await JsonDocument.ParseAsync(response.Content, cancellationToken: cancellationToken);
            var properties = document.RootElement.GetProperty("properties");
            Assert.True(properties.GetProperty("sequence").GetUInt64() == expected,
                $"devices/{device} holds sequence {properties.GetProperty("sequence")}, expected {expected}");
            Assert.Equal((double)expected, properties.GetProperty("temperatureC").GetDouble());
        }
    }

    private static async Task<IReadOnlyList<PartitionStatusView>> PartitionsAsync(LocalPipeline pipeline, CancellationToken cancellationToken) =>
        (await pipeline.GetFunctionsStatusAsync(cancellationToken)).Functions.Single(f => f.Name == Function).Partitions;

    /// <summary>Waits until <paramref name="condition"/> holds; the caller's token bounds the wait.</summary>
    private static Task WaitUntilAsync(Func<Task<bool>> condition, string what, CancellationToken cancellationToken) =>
        Eventually.UntilAsync(condition, what, TimeSpan.FromMinutes(5), TimeSpan.FromMilliseconds(200), cancellationToken: cancellationToken);
}
