using System.Net.Http.Headers;
using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using SensorPipeline.Protos;

namespace SensorPipeline.EndToEnd.Tests;

/// <summary>
/// Production-shaped input through devhost, the real handler and the store: ingestion events of 1, 50 and 500
/// readings and one just under the service's 1 MB limit, both kinds mixed in each, sent through the Event Hubs REST
/// API. Every reading is checked by a point read in <c>readings</c>, every device's state in <c>devices</c>.
/// </summary>
[Collection(StackCollections.Readings)]
public sealed class LargeEventsTests
{
    private static readonly DateTimeOffset Observed = DateTimeOffset.UtcNow;

    [Fact]
    public async Task Chain_IngestionEventsUpToOneMegabyte_EveryReadingStoredDevicesHoldTheNewest()
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(8));
        await using var stack = await RawSendPipeline.StartAsync("large", timeout.Token);
        var pipeline = stack.Pipeline;

        var events = new List<List<Reading>> { Readings("one", 1), Readings("fifty", 50), Readings("five-hundred", 500), new List<Reading>() };
        var nearlyOneMegabyte = events[3];
        while (Size(nearlyOneMegabyte) < 1_000_000)
        {
            nearlyOneMegabyte.AddRange(Readings(string.Create(CultureInfo.InvariantCulture, $"full{nearlyOneMegabyte.Count / 100:D3}"), 100));
        }

        Assert.InRange(Size(nearlyOneMegabyte), 1_000_000, 1024 * 1024 - 1);
        foreach (var readings in events)
        {
            var batch = new ReadingBatch();
            batch.Readings.AddRange(readings);
            await stack.SendAsync("ingestion/messages", batch.ToByteArray(), timeout.Token);
        }

        await pipeline.WaitForDrainAsync(TimeSpan.FromMinutes(5), TimeSpan.FromSeconds(1), timeout.Token);

        using var cosmos = pipeline.CreateCosmosClient();
        var database = cosmos.GetDatabase("large");
        var all = events.SelectMany(e => e).ToList();
        Assert.Equal(1 + 50 + 500 + nearlyOneMegabyte.Count, all.Count);
        var missing = 0;
        await Parallel.ForEachAsync(all, new ParallelOptions { MaxDegreeOfParallelism = 16, CancellationToken = timeout.Token }, async (reading, token) =>
        {
            var id = SensorPipeline.Core.GeoJson.DocumentIds.ReadingId(reading.DeviceId, reading.Sequence, reading.ObservedAt.ToDateTimeOffset());
            using var response = await database.GetContainer("readings").ReadItemStreamAsync(id, new PartitionKey(reading.DeviceId), cancellationToken: token);
            if (!response.IsSuccessStatusCode)
            {
                Interlocked.Increment(ref missing);
                return;
            }

            using var document = await JsonDocument.ParseAsync(response.Content, cancellationToken: token);
            Assert.Equal((long)reading.Sequence, document.RootElement.GetProperty("properties").GetProperty("sequence").GetInt64());
        });
        Assert.Equal(0, missing);

        Assert.Null(await DeviceStatesSettled.WaitAsync(database.GetContainer("devices"), DeviceStatesSettled.DefaultTimeout, TimeProvider.System, timeout.Token));
        foreach (var device in all.GroupBy(r => r.DeviceId).Take(200))
        {
            var newest = device.Max(r => r.Sequence);
            using var response = await database.GetContainer("devices").ReadItemStreamAsync(device.Key, new PartitionKey(device.Key), cancellationToken: timeout.Token);
            Assert.True(response.IsSuccessStatusCode, $"devices/{device.Key}: {response.StatusCode}");
            using var document = await JsonDocument.ParseAsync(response.Content, cancellationToken: timeout.Token);
            Assert.Equal((long)newest, document.RootElement.GetProperty("properties").GetProperty("sequence").GetInt64());
        }
    }

    /// <summary><paramref name="count"/> readings of ten devices, weather and seismic interleaved, sequences rising per device.</summary>
    private static List<Reading> Readings(string prefix, int count) =>
        [.. Enumerable.Range(0, count).Select(i =>
        {
            var seismic = i % 3 == 2;
            var reading = new Reading
            {
                DeviceId = string.Create(CultureInfo.InvariantCulture, $"{prefix}-{(seismic ? "sm" : "ws")}-{i % 10}"),
                Kind = seismic ? SensorKind.Seismic : SensorKind.Weather,
                Sequence = (ulong)(i / 10) + 1,
                ObservedAt = Timestamp.FromDateTimeOffset(Observed.AddMilliseconds(i)),
                Location = new Location { Latitude = 47.6 + (i % 7), Longitude = -122.3 + (i % 5), AltitudeM = 56 },
            };
            if (seismic)
            {
                reading.Seismic = new SeismicPayload { Magnitude = 2.1, DepthKm = 10, PeakGroundAccelerationG = 0.01, AccelerationZMps2 = 9.81 };
            }
            else
            {
                reading.Weather = new WeatherPayload { TemperatureC = 12.5 + i, RelativeHumidityPct = 81, PressureHpa = 1013.25, WindSpeedMps = 4.2, WindDirectionDeg = 270, RainMmph = 0.4 };
            }

            return reading;
        })];

    private static int Size(List<Reading> readings)
    {
        var batch = new ReadingBatch();
        batch.Readings.AddRange(readings);
        return batch.CalculateSize();
    }
}
