using System.Diagnostics;
using SensorPipeline.Core.GeoJson;

namespace SensorPipeline.EndToEnd.Tests;

/// <summary>
/// The store refusing writes, through the real stack (devhost's Event Hubs and Functions host with its retry policy, the
/// handler, the Cosmos DB emulator answering with its injected faults): a refusal of one document is that document's
/// (dead-lettered with its reason, the partition moves on within seconds) whatever the size of its batch, and a refusal
/// of every write to one container is systemic (nothing dead-lettered, raised, everything stored once it clears).
/// Envelopes are posted straight to a processor hub's partition, one partition per scenario.
/// </summary>
[Collection(StackCollections.Readings)]
public sealed class StoreRefusalTests
{
    /// <summary>"Within seconds": the retry policy's back-off alone (2 s, 4 s, 8 s…) passes this after a few failures.</summary>
    private static readonly TimeSpan BehindStoredWithin = TimeSpan.FromSeconds(30);

    [Fact]
    public async Task WeatherHub_StoreRefusesOneEnvelopesDocument403Then400_DeadLetteredAndTheEnvelopeBehindStoredWithinSeconds()
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(5));
        await using var stack = await RawSendPipeline.StartAsync("refusal", timeout.Token);

        // The envelope alone on an idle partition: its batch is that one envelope.
        await RefusedAloneAsync(stack, status: 403, partition: "1", timeout.Token);
        // With others in its batch: the refused reading shares its envelope with a good one, and the next envelope follows at once.
        await RefusedAloneAsync(stack, status: 400, partition: "2", timeout.Token, withOthers: true);
    }

    [Fact]
    public async Task Chain_ReadingsContainerRefusesEveryWrite_NothingDeadLetteredSystemicRaisedAllStoredAfter()
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(5));
        await using var stack = await RawSendPipeline.StartAsync("misconfig", timeout.Token);
        var database = stack.Database;
        var now = DateTimeOffset.UtcNow;
        var devices = Enumerable.Range(0, 3).Select(i => RawSendPipeline.NewDeviceId($"misconfig-{i}-")).ToArray();

        // `readings` recreated with another partition-key path: every write to it is refused 400/1001; the others answer.
        var fault = TimeSpan.FromSeconds(15);
        await stack.Pipeline.InjectStoreFaultAsync(new InjectedStoreFault(400, fault.TotalSeconds, WritesOnly: true, SubStatus: 1001, Container: "readings"), timeout.Token);
        var injected = Stopwatch.StartNew();
        foreach (var device in devices)
        {
            await stack.SendAsync("weather/partitions/3/messages", Envelope(now, [device]), timeout.Token);
        }

        foreach (var device in devices)
        {
            // Any dead letter for them is already the failure: a fault of the container was taken for the documents'.
            await Eventually.UntilAsync(
                async token =>
                {
                    Assert.Empty(await DeadLettersAsync(database, devices, token));
                    return await ExistsAsync(database.GetContainer("readings"), DocumentIds.ReadingId(device, 1, now), device, token);
                },
                $"{device}'s reading stored once the refusal cleared", TimeSpan.FromMinutes(3), TimeSpan.FromMilliseconds(500), cancellationToken: timeout.Token);
        }

        Assert.True(injected.Elapsed >= fault, $"stored {injected.Elapsed} after the fault began, before it cleared: the refusal was not in the way");
        Assert.Empty(await DeadLettersAsync(database, devices, timeout.Token));
        // Raised: the metric alert-systemic pages on reached the telemetry ingestion (flushed every 2 s locally).
        await Eventually.ValueAsync(token => SystemicFailuresAsync(stack.Pipeline, token), failures => failures > 0, "a systemic failure raised",
            TimeSpan.FromSeconds(30), TimeSpan.FromMilliseconds(500), cancellationToken: timeout.Token);
    }

    private static async Task<long> SystemicFailuresAsync(LocalPipeline pipeline, CancellationToken cancellationToken)
    {
        using var summary = await pipeline.GetTelemetrySummaryAsync(TimeSpan.FromMinutes(5), cancellationToken);
        return summary.RootElement.GetProperty("functions").EnumerateArray()
            .Where(f => f.GetProperty("function").GetString() == "WeatherProcessor")
            .Sum(f => f.GetProperty("systemicFailures").GetInt64());
    }

    private static async Task RefusedAloneAsync(RawSendPipeline stack, int status, string partition, CancellationToken cancellationToken, bool withOthers = false)
    {
        var database = stack.Database;
        var now = DateTimeOffset.UtcNow;
        var refused = RawSendPipeline.NewDeviceId($"refused-{status}-");
        var neighbour = RawSendPipeline.NewDeviceId($"neighbour-{status}-");
        var behind = RawSendPipeline.NewDeviceId($"behind-{status}-");
        // Only this device's documents, every time: the marker is in its reading and device documents, not in its dead letter.
        await stack.Pipeline.InjectStoreFaultAsync(new InjectedStoreFault(status, 300, DocumentContains: $"\"id\":\"{refused}"), cancellationToken);
        var functions = await stack.Pipeline.GetFunctionsStatusAsync(cancellationToken);
        var before = Invocations(functions);

        await stack.SendAsync($"weather/partitions/{partition}/messages", Envelope(now, withOthers ? [refused, neighbour] : [refused]), cancellationToken);
        if (!withOthers)
        {
            // Alone: the next envelope arrives only once the first has been tried, so it cannot share its batch.
            await Eventually.ValueAsync(async token => Invocations(await stack.Pipeline.GetFunctionsStatusAsync(token)), invocations => invocations != before,
                "the refused envelope's first invocation", TimeSpan.FromMinutes(2), TimeSpan.FromMilliseconds(100), cancellationToken: cancellationToken);
        }

        var sent = Stopwatch.StartNew();
        await stack.SendAsync($"weather/partitions/{partition}/messages", Envelope(now, [behind]), cancellationToken);
        // A timeout here names the document, whose device id carries the status.
        await stack.WaitForDocumentAsync("readings", DocumentIds.ReadingId(behind, 1, now), behind, cancellationToken, BehindStoredWithin);

        Assert.True(sent.Elapsed < BehindStoredWithin);
        var letters = await DeadLettersAsync(database, [refused], cancellationToken);
        var letter = Assert.Single(letters, l => l.GetProperty("detail").GetString()!.Contains("→ readings", StringComparison.Ordinal));
        Assert.Equal("rejected-by-store", letter.GetProperty("reason").GetString());
        Assert.Contains(status.ToString(System.Globalization.CultureInfo.InvariantCulture), letter.GetProperty("detail").GetString(), StringComparison.Ordinal);
        if (withOthers)
        {
            await stack.WaitForDocumentAsync("readings", DocumentIds.ReadingId(neighbour, 1, now), neighbour, cancellationToken);
        }

        Assert.Empty(await DeadLettersAsync(database, [behind, neighbour], cancellationToken));
    }

    private static long Invocations(FunctionsStatus status)
    {
        var weather = status.Functions.Single(f => f.Name == "WeatherProcessor");
        return weather.InvocationsSucceeded + weather.InvocationsFailed;
    }

    /// <summary>A weather envelope (the splitter's own text format) of one reading per device, its source enqueued now.</summary>
    private static byte[] Envelope(DateTimeOffset observed, string[] devices) =>
        RawSendPipeline.WeatherEnvelope([.. devices.Select(device => RawSendPipeline.Weather(device, 1, observed))]);

    /// <summary>Every dead letter naming one of <paramref name="devices"/>.</summary>
    private static async Task<List<JsonElement>> DeadLettersAsync(Database database, IReadOnlyList<string> devices, CancellationToken cancellationToken)
    {
        var found = new List<JsonElement>();
        foreach (var device in devices)
        {
            var query = new QueryDefinition("SELECT * FROM c WHERE c.deviceId = @device").WithParameter("@device", device);
            using var iterator = database.GetContainer("deadletters").GetItemQueryStreamIterator(query);
            while (iterator.HasMoreResults)
            {
                using var page = await iterator.ReadNextAsync(cancellationToken);
                page.EnsureSuccessStatusCode();
                using var json = await JsonDocument.ParseAsync(page.Content, cancellationToken: cancellationToken);
                found.AddRange(json.RootElement.GetProperty("Documents").EnumerateArray().Select(d => d.Clone()));
            }
        }

        return found;
    }

    private static async Task<bool> ExistsAsync(Container container, string id, string partitionKey, CancellationToken cancellationToken)
    {
        using var response = await container.ReadItemStreamAsync(id, new PartitionKey(partitionKey), cancellationToken: cancellationToken);
        return response.StatusCode == HttpStatusCode.OK;
    }
}
