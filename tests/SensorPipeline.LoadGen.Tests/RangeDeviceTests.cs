using Google.Protobuf;
using SensorPipeline.Core.Readings;
using SensorPipeline.Devices;

namespace SensorPipeline.LoadGen.Tests;

/// <summary>A kind with no device model of its own is simulated from its ranges in sensor-kinds.json.</summary>
[Trait("Category", "Fast")]
public sealed class RangeDeviceTests
{
    private const string AirQuality = """
        { "kinds": [ { "name": "airquality", "kind": 3, "payloadField": 12, "processor": "AirQualityProcessor", "hub": "airquality",
          "consumerGroup": "airquality-processor", "hubSetting": "AirQualityHubName",
          "measurements": [ { "name": "pm25UgM3", "min": 0, "max": 500 }, { "name": "no2Ppb", "min": 10, "max": 20 } ] } ] }
        """;

    [Fact]
    public void Next_KindWithoutAModel_ValidReadingsInsideItsRanges()
    {
        var kinds = SensorKindCatalog.Parse(AirQuality, "test");
        var kind = kinds.All[0];
        var device = DeviceModels.Create(kind, "aq-0001", new Random(3));
        Assert.IsType<RangeDevice>(device);

        for (var i = 0; i < 500; i++)
        {
            var bytes = device.Next(DateTimeOffset.UnixEpoch.AddSeconds(i)).ToByteArray();
            Assert.True(ReadingDecoder.TryDecode(bytes, kinds, out var view));
            Assert.Equal(DeadLetterReason.None, ReadingValidator.Validate(view));
            Assert.InRange(view.Measurements[0], 0, 500);
            Assert.InRange(view.Measurements[1], 10, 20);
        }
    }

    [Fact]
    public void Create_EveryShippedKind_ReadingsPassValidation()
    {
        foreach (var kind in SensorKindCatalog.Default.All)
        {
            var device = DeviceModels.Create(kind, $"t-{kind.Name}-0001", new Random(1));
            Assert.True(ReadingDecoder.TryDecode(device.Next(DateTimeOffset.UnixEpoch).ToByteArray(), out var view));
            Assert.Equal(DeadLetterReason.None, ReadingValidator.Validate(view));
            Assert.Equal(kind.Kind, view.Kind);
        }
    }
}
