using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Http.Headers;
using System.Text.Json;
using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using Microsoft.Azure.Cosmos;
using SensorPipeline.Core.Splitting;
using SensorPipeline.Protos;
using SensorPipeline.Stack;
using SensorPipeline.Toolkit;
using SourcePosition = SensorPipeline.Core.Readings.SourcePosition;

namespace SensorPipeline.EndToEnd.Tests;

/// <summary>
/// A forged envelope on a processor hub, through the real devhost (Event Hubs REST send, the Functions host's
/// retry policy) into the real handler: it must be dead-lettered, and the valid envelope queued behind it on the
/// same partition must be stored — not wait behind an invocation that fails forever.
/// </summary>
[Collection(OneAtATime.Name)]
public sealed class PoisonEnvelopeTests
{
    private const string WeatherPartition0 = "weather/partitions/0/messages";

    [Fact]
    public async Task WeatherHub_EnvelopeWithOutOfRangeEnqueuedTime_DeadLetteredAndTheEnvelopeBehindItStored()
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(4));
        await using var stack = await RawSendPipeline.StartAsync("poison", timeout.Token);
        var pipeline = stack.Pipeline;
        var now = DateTimeOffset.UtcNow;
        var forgedDevice = "forged-" + Guid.NewGuid().ToString("N")[..8];
        var validDevice = "behind-" + Guid.NewGuid().ToString("N")[..8];

        // The splitter writes whatever enqueued time its input carries: long.MaxValue is the corrupted/forged value.
        var forged = Envelope(forgedDevice, now, long.MaxValue);
        var valid = Envelope(validDevice, now, now.ToUnixTimeMilliseconds());
        var forgedSequence = await stack.SendAsync(WeatherPartition0, forged, timeout.Token);
        await stack.SendAsync(WeatherPartition0, valid, timeout.Token);

        using var store = pipeline.CreateCosmosClient();
        var database = store.GetDatabase("poison");
        var started = Stopwatch.StartNew();
        var reading = await WaitForAsync(database.GetContainer("readings"), SensorPipeline.Core.GeoJson.DocumentIds.ReadingId(validDevice, 1, now), validDevice, timeout.Token);
        var deadLetterId = string.Create(CultureInfo.InvariantCulture, $"weather-processor:0:{forgedSequence}");
        var letter = await WaitForAsync(database.GetContainer("deadletters"), deadLetterId, deadLetterId, timeout.Token);

        Assert.Equal(validDevice, reading.GetProperty("deviceId").GetString());
        Assert.Equal("invalid-source", letter.GetProperty("reason").GetString());
        Assert.Equal(forged, letter.GetProperty("payloadBase64").GetBytesFromBase64());
        // Well within the first retry's back-off (2 s): the forged envelope never failed an invocation.
        var status = await pipeline.GetFunctionsStatusAsync(timeout.Token);
        Assert.Equal(0, status.Functions.Single(f => f.Name == "WeatherProcessor").InvocationsFailed);
        Assert.True(started.Elapsed < TimeSpan.FromMinutes(2), $"stored after {started.Elapsed}");
    }

    private static byte[] Envelope(string device, DateTimeOffset observed, long enqueuedUnixMs)
    {
        var batch = new ReadingBatch();
        batch.Readings.Add(new Reading
        {
            DeviceId = device,
            Kind = SensorKind.Weather,
            Sequence = 1,
            ObservedAt = Timestamp.FromDateTimeOffset(observed),
            Location = new Location { Latitude = 47.6, Longitude = -122.3, AltitudeM = 56 },
            Weather = new WeatherPayload { TemperatureC = 12.5, RelativeHumidityPct = 80, PressureHpa = 1013, WindSpeedMps = 4, WindDirectionDeg = 270, RainMmph = 0 },
        });
        var splitter = new Splitter();
        var result = splitter.Split([new InputEvent(batch.ToByteArray(), new SourcePosition("0", 1, enqueuedUnixMs))], observed.ToUnixTimeMilliseconds());
        Assert.Equal(1, result.WeatherReadings);
        return Assert.Single(result.Weather).ToArray();
    }

    /// <summary>Polls one document until it is stored (the stand-in answers a missing one with an error status).</summary>
    private static async Task<JsonElement> WaitForAsync(Container container, string id, string partitionKey, CancellationToken cancellationToken)
    {
        while (true)
        {
            using (var response = await container.ReadItemStreamAsync(id, new PartitionKey(partitionKey), cancellationToken: cancellationToken))
            {
                if (response.StatusCode == HttpStatusCode.OK)
                {
                    using var document = await JsonDocument.ParseAsync(response.Content, cancellationToken: cancellationToken);
                    return document.RootElement.Clone();
                }
            }

            await Task.Delay(TimeSpan.FromMilliseconds(250), cancellationToken);
        }
    }
}
