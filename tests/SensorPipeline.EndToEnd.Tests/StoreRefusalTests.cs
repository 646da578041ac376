using System.Diagnostics;
using System.Net;
using System.Text.Json;
using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using Microsoft.Azure.Cosmos;
using SensorPipeline.Core.GeoJson;
using SensorPipeline.Core.Splitting;
using SensorPipeline.Protos;
using SensorPipeline.Stack;
using SourcePosition = SensorPipeline.Core.Readings.SourcePosition;

namespace SensorPipeline.EndToEnd.Tests;

/// <summary>
/// The store refusing writes, through the real stack (devhost's Event Hubs and Functions host with its retry policy, the
/// handler, the Cosmos DB emulator answering with its injected faults): a refusal of one document is that document's
/// (dead-lettered with its reason, the partition moves on within seconds) whatever the size of its batch, and a refusal
/// of every write to one container is systemic (nothing dead-lettered, raised, everything stored once it clears).
/// Envelopes are posted straight to a processor hub's partition, one partition per scenario.
/// </summary>
[Collection(OneAtATime.Name)]
public sealed class StoreRefusalTests
{
    /// <summary>"Within seconds": the retry policy's back-off alone (2 s, 4 s, 8 s…) passes this after a few failures.</summary>
    private static readonly TimeSpan BehindStoredWithin = TimeSpan.FromSeconds(30);

    [Fact]
    public async Task WeatherHub_StoreRefusesOneEnvelopesDocument403Then400_DeadLetteredAndTheEnvelopeBehindStoredWithinSeconds()
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(5));
        await using var stack = await RawSendPipeline.StartAsync("refusal", timeout.Token);
        using var client = stack.Pipeline.CreateCosmosClient();
        var database = client.GetDatabase("refusal");

        // The envelope alone on an idle partition: its batch is that one envelope.
        await RefusedAloneAsync(stack, database, status: 403, partition: "1", timeout.Token);
        // With others in its batch: the refused reading shares its envelope with a good one, and the next envelope follows at once.
        await RefusedAloneAsync(stack, database, status: 400, partition: "2", timeout.Token, withOthers: true);
    }

    [Fact]
    public async Task Chain_ReadingsContainerRefusesEveryWrite_NothingDeadLetteredSystemicRaisedAllStoredAfter()
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(5));
        await using var stack = await RawSendPipeline.StartAsync("misconfig", timeout.Token);
        using var client = stack.Pipeline.CreateCosmosClient();
        var database = client.GetDatabase("misconfig");
        var now = DateTimeOffset.UtcNow;
        var devices = Enumerable.Range(0, 3).Select(i => $"misconfig-{i}-" + Guid.NewGuid().ToString("N")[..6]).ToArray();

        // `readings` recreated with another partition-key path: every write to it is refused 400/1001; the others answer.
        var fault = TimeSpan.FromSeconds(15);
        await stack.Pipeline.InjectStoreFaultAsync(new StoreFault(400, fault.TotalSeconds, WritesOnly: true, SubStatus: 1001, Container: "readings"), timeout.Token);
        var injected = Stopwatch.StartNew();
        foreach (var device in devices)
        {
            await stack.SendAsync("weather/partitions/3/messages", Envelope(now, device), timeout.Token);
        }

        foreach (var device in devices)
        {
            // Any dead letter for them is already the failure: a fault of the container was taken for the documents'.
            while (!await ExistsAsync(database.GetContainer("readings"), DocumentIds.ReadingId(device, 1, now), device, timeout.Token))
            {
                Assert.Empty(await DeadLettersAsync(database, devices, timeout.Token));
                await Task.Delay(TimeSpan.FromMilliseconds(500), timeout.Token);
            }
        }

        Assert.True(injected.Elapsed >= fault, $"stored {injected.Elapsed} after the fault began, before it cleared: the refusal was not in the way");
        Assert.Empty(await DeadLettersAsync(database, devices, timeout.Token));
        // Raised: the metric alert-systemic pages on reached the telemetry ingestion (flushed every 2 s locally).
        var raised = Stopwatch.StartNew();
        while (await SystemicFailuresAsync(stack.Pipeline, timeout.Token) == 0)
        {
            Assert.True(raised.Elapsed < TimeSpan.FromSeconds(30), "no systemic failure raised");
            await Task.Delay(TimeSpan.FromMilliseconds(500), timeout.Token);
        }
    }

    private static async Task<long> SystemicFailuresAsync(LocalPipeline pipeline, CancellationToken cancellationToken)
    {
        using var summary = await pipeline.GetTelemetrySummaryAsync(TimeSpan.FromMinutes(5), cancellationToken);
        return summary.RootElement.GetProperty("functions").EnumerateArray()
            .Where(f => f.GetProperty("function").GetString() == "WeatherProcessor")
            .Sum(f => f.GetProperty("systemicFailures").GetInt64());
    }

    private static async Task RefusedAloneAsync(RawSendPipeline stack, Database database, int status, string partition, CancellationToken cancellationToken,
        bool withOthers = false)
    {
        var now = DateTimeOffset.UtcNow;
        var refused = $"refused-{status}-" + Guid.NewGuid().ToString("N")[..6];
        var neighbour = $"neighbour-{status}-" + Guid.NewGuid().ToString("N")[..6];
        var behind = $"behind-{status}-" + Guid.NewGuid().ToString("N")[..6];
        // Only this device's documents, every time: the marker is in its reading and device documents, not in its dead letter.
        await stack.Pipeline.InjectStoreFaultAsync(new StoreFault(status, 300, DocumentContains: $"\"id\":\"{refused}"), cancellationToken);
        var functions = await stack.Pipeline.GetFunctionsStatusAsync(cancellationToken);
        var before = Invocations(functions);

        await stack.SendAsync($"weather/partitions/{partition}/messages", withOthers ? Envelope(now, refused, neighbour) : Envelope(now, refused), cancellationToken);
        if (!withOthers)
        {
            // Alone: the next envelope arrives only once the first has been tried, so it cannot share its batch.
            while (Invocations(await stack.Pipeline.GetFunctionsStatusAsync(cancellationToken)) == before)
            {
                await Task.Delay(TimeSpan.FromMilliseconds(100), cancellationToken);
            }
        }

        var sent = Stopwatch.StartNew();
        await stack.SendAsync($"weather/partitions/{partition}/messages", Envelope(now, behind), cancellationToken);
        using (var within = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken))
        {
            within.CancelAfter(BehindStoredWithin);
            try
            {
                await WaitForAsync(database.GetContainer("readings"), DocumentIds.ReadingId(behind, 1, now), behind, within.Token);
            }
            catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
            {
                Assert.Fail($"{status}: the envelope behind the refused one was not stored within {BehindStoredWithin}");
            }
        }

        Assert.True(sent.Elapsed < BehindStoredWithin);
        var letters = await DeadLettersAsync(database, [refused], cancellationToken);
        var letter = Assert.Single(letters, l => l.GetProperty("detail").GetString()!.Contains("→ readings", StringComparison.Ordinal));
        Assert.Equal("rejected-by-store", letter.GetProperty("reason").GetString());
        Assert.Contains(status.ToString(System.Globalization.CultureInfo.InvariantCulture), letter.GetProperty("detail").GetString(), StringComparison.Ordinal);
        if (withOthers)
        {
            await WaitForAsync(database.GetContainer("readings"), DocumentIds.ReadingId(neighbour, 1, now), neighbour, cancellationToken);
        }

        Assert.Empty(await DeadLettersAsync(database, [behind, neighbour], cancellationToken));
    }

    private static long Invocations(FunctionsStatus status)
    {
        var weather = status.Functions.Single(f => f.Name == "WeatherProcessor");
        return weather.InvocationsSucceeded + weather.InvocationsFailed;
    }

    /// <summary>A weather envelope (the splitter's own text format) of one reading per device, its source enqueued now.</summary>
    private static byte[] Envelope(DateTimeOffset observed, params string[] devices)
    {
        var batch = new ReadingBatch();
        foreach (var device in devices)
        {
            batch.Readings.Add(new Reading
            {
                DeviceId = device,
                Kind = SensorKind.Weather,
                Sequence = 1,
                ObservedAt = Timestamp.FromDateTimeOffset(observed),
                Location = new Location { Latitude = 47.6, Longitude = -122.3, AltitudeM = 56 },
                Weather = new WeatherPayload { TemperatureC = 12.5, RelativeHumidityPct = 80, PressureHpa = 1013, WindSpeedMps = 4, WindDirectionDeg = 270, RainMmph = 0 },
            });
        }

        var result = new Splitter().Split([new InputEvent(batch.ToByteArray(), new SourcePosition("0", 1, DateTimeOffset.UtcNow.ToUnixTimeMilliseconds()))],
            DateTimeOffset.UtcNow.ToUnixTimeMilliseconds());
        return Assert.Single(result.Weather).ToArray();
    }

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

    /// <summary>Polls one document until it is stored.</summary>
    private static async Task WaitForAsync(Container container, string id, string partitionKey, CancellationToken cancellationToken)
    {
        while (true)
        {
            using (var response = await container.ReadItemStreamAsync(id, new PartitionKey(partitionKey), cancellationToken: cancellationToken))
            {
                if (response.StatusCode == HttpStatusCode.OK)
                {
                    return;
                }
            }

            await Task.Delay(TimeSpan.FromMilliseconds(250), cancellationToken);
        }
    }
}
