using System.Text.Json.Nodes;

namespace SensorPipeline.Core.Tests;

/// <summary>
/// A third kind, air quality, added as docs/adding-a-sensor-kind.md says: one more entry in sensor-kinds.json (kind 3,
/// payload field 12, two measurements). Its readings are encoded by hand, as generated code would encode an
/// <c>AirQualityPayload</c> message, so no proto change is needed to prove the kind flows.
/// </summary>
internal static class SyntheticKind
{
    public const SensorKind Kind = (SensorKind)3;
    public const int PayloadField = 12;

    /// <summary>The repository's sensor-kinds.json with the air-quality kind appended.</summary>
    public static string CatalogJson()
    {
        var root = JsonNode.Parse(File.ReadAllText(CatalogPath()))!;
        root["kinds"]!.AsArray().Add(JsonNode.Parse("""
            {
              "name": "airquality",
              "kind": 3,
              "payloadField": 12,
              "processor": "AirQualityProcessor",
              "hub": "airquality",
              "consumerGroup": "airquality-processor",
              "hubSetting": "AirQualityHubName",
              "measurements": [
                { "name": "pm25UgM3", "min": 0, "max": 500 },
                { "name": "no2Ppb", "min": 0, "max": 200 }
              ]
            }
            """));
        return root.ToJsonString();
    }

    public static SensorKindCatalog Catalog() => SensorKindCatalog.Parse(CatalogJson(), "sensor-kinds.json + airquality");

    /// <summary>An air-quality reading: the common fields through the generated <see cref="Reading"/>, then the payload field.</summary>
    public static Reading Common(string device, ulong sequence) => new()
    {
        DeviceId = device,
        Kind = Kind,
        Sequence = sequence,
        ObservedAt = Google.Protobuf.WellKnownTypes.Timestamp.FromDateTimeOffset(Builders.Observed.AddSeconds(sequence)),
        Location = new Location { Latitude = 52.5, Longitude = 13.4, AltitudeM = 34 },
    };

    public static byte[] Encode(string device, ulong sequence, double pm25, double no2)
    {
        // The generated Reading keeps a field it does not know and writes it back: the payload of a kind readings.proto lacks.
        var reading = Common(device, sequence);
        reading.MergeFrom(PayloadEncoder.Encode(Catalog().Get(Kind), [pm25, no2]));
        return reading.ToByteArray();
    }

    private static string CatalogPath()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            var path = Path.Combine(dir.FullName, "core", "SensorPipeline.Core", SensorKindCatalog.FileName);
            if (File.Exists(path))
            {
                return path;
            }
        }

        throw new FileNotFoundException($"no core/SensorPipeline.Core/{SensorKindCatalog.FileName} above {AppContext.BaseDirectory}");
    }
}
