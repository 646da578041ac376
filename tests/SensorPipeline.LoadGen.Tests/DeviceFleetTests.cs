using Google.Protobuf;
using SensorPipeline.Core.Readings;
using SensorPipeline.Devices;

namespace SensorPipeline.LoadGen.Tests;

[Trait("Category", "Fast")]
public class DeviceFleetTests
{
    private static List<Reading> Produce(int seed, int weather, int seismic, int rounds)
    {
        var fleet = new DeviceFleet([weather, seismic], seed, "t");
        var readings = new List<Reading>();
        for (var r = 0; r < rounds; r++)
        {
            for (var d = 0; d < fleet.Count; d++)
            {
                readings.Add(fleet[d].Next(Builders.Observed.AddSeconds(r)));
            }
        }

        return readings;
    }

    [Fact]
    public void Next_SameSeed_SameReadings()
    {
        var a = Produce(seed: 42, 3, 2, rounds: 200);
        var b = Produce(seed: 42, 3, 2, rounds: 200);

        Assert.Equal(a.Select(r => r.ToByteArray()), b.Select(r => r.ToByteArray()));
    }

    [Fact]
    public void Next_OtherSeed_OtherValues()
    {
        var a = Produce(seed: 1, 2, 2, rounds: 10);
        var b = Produce(seed: 2, 2, 2, rounds: 10);

        Assert.NotEqual(a.Select(r => r.Location.Latitude), b.Select(r => r.Location.Latitude));
    }

    [Fact]
    public void Fleet_AlternatesKinds_AndNamesDevicesByKind()
    {
        var fleet = new DeviceFleet([3, 2], 7, "lg");

        Assert.Equal(
            ["lg-weather-0001", "lg-seismic-0001", "lg-weather-0002", "lg-seismic-0002", "lg-weather-0003"],
            fleet.Devices.Select(d => d.Id));
        Assert.Equal(
            [SensorKind.Weather, SensorKind.Seismic, SensorKind.Weather, SensorKind.Seismic, SensorKind.Weather],
            fleet.Devices.Select(d => d.Kind));
    }

    [Fact]
    public void Next_SequencesStartAtOne_AndIncreaseByOnePerDevice()
    {
        var readings = Produce(seed: 3, 2, 2, rounds: 50);

        foreach (var device in readings.GroupBy(r => r.DeviceId))
        {
            Assert.Equal(Enumerable.Range(1, 50).Select(i => (ulong)i), device.Select(r => r.Sequence));
        }
    }

    [Fact]
    public void Next_EveryReading_PassesTheCoreValidator()
    {
        foreach (var reading in Produce(seed: 5, 4, 4, rounds: 300))
        {
            Assert.True(ReadingDecoder.TryDecode(reading.ToByteArray(), out var view));
            Assert.Equal(DeadLetterReason.None, ReadingValidator.Validate(view));
        }
    }

    [Fact]
    public void Next_Weather_PlausibleDriftingRoundedValues()
    {
        var readings = Produce(seed: 11, 5, 0, rounds: 2000);

        foreach (var r in readings)
        {
            var w = r.Weather;
            Assert.InRange(w.TemperatureC, -60, 60);
            Assert.InRange(w.RelativeHumidityPct, 0, 100);
            Assert.InRange(w.PressureHpa, 750, 1100);
            Assert.InRange(w.WindSpeedMps, 0, 40);
            Assert.InRange(w.WindDirectionDeg, 0, 360);
            Assert.True(w.RainMmph >= 0);
            Assert.Equal(Math.Round(w.TemperatureC, 2), w.TemperatureC);
            Assert.Equal(Math.Round(w.RelativeHumidityPct, 1), w.RelativeHumidityPct);
            AssertSixDecimals(r.Location);
        }

        foreach (var device in readings.GroupBy(r => r.DeviceId))
        {
            var list = device.ToList();
            // Drifting: consecutive readings stay close, but the series moves.
            Assert.All(list.Zip(list.Skip(1)), p => Assert.InRange(Math.Abs(p.First.Weather.TemperatureC - p.Second.Weather.TemperatureC), 0, 1.0));
            Assert.True(list.Select(x => x.Weather.TemperatureC).Distinct().Count() > 100);
        }
    }

    [Fact]
    public void Next_Seismic_MostlyQuietWithOccasionalEvents()
    {
        var readings = Produce(seed: 13, 0, 5, rounds: 2000);

        var quiet = readings.Count(r => r.Seismic.Magnitude < 1.5);
        var events = readings.Count(r => r.Seismic.Magnitude >= 2);
        Assert.True(quiet > readings.Count * 0.95, $"{quiet} of {readings.Count} quiet");
        Assert.True(events > 0, "no seismic event in 10,000 readings");
        Assert.All(readings, r =>
        {
            Assert.InRange(r.Seismic.Magnitude, 0, 7);
            Assert.InRange(r.Seismic.DepthKm, 0, 40);
            Assert.InRange(r.Seismic.PeakGroundAccelerationG, 0, 2);
            AssertSixDecimals(r.Location);
        });
    }

    [Fact]
    public void Next_Position_MovesSlowly()
    {
        var readings = Produce(seed: 17, 2, 2, rounds: 500);

        foreach (var device in readings.GroupBy(r => r.DeviceId))
        {
            var list = device.ToList();
            Assert.All(list.Zip(list.Skip(1)), p =>
            {
                Assert.InRange(Math.Abs(p.First.Location.Latitude - p.Second.Location.Latitude), 0, 0.0001);
                Assert.InRange(Math.Abs(p.First.Location.Longitude - p.Second.Location.Longitude), 0, 0.0001);
            });
            Assert.NotEqual(list[0].Location.Latitude, list[^1].Location.Latitude);
        }
    }

    private static void AssertSixDecimals(Location location)
    {
        Assert.Equal(Math.Round(location.Latitude, 6), location.Latitude);
        Assert.Equal(Math.Round(location.Longitude, 6), location.Longitude);
        Assert.InRange(location.Latitude, -90, 90);
        Assert.InRange(location.Longitude, -180, 180);
    }
}
