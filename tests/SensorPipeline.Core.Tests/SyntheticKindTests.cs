using System.Text.Json;
using SensorPipeline.Core.Policies;
using SensorPipeline.Core.Processing;
using SensorPipeline.Core.Splitting;

namespace SensorPipeline.Core.Tests;

/// <summary>
/// docs/adding-a-sensor-kind.md, proved: a third kind added to the kind list alone is routed by the splitter to its own
/// envelopes and written by its processor as GeoJSON with its own measurement names, beside the shipped kinds.
/// </summary>
public class SyntheticKindTests
{
    private const long Now = 1_800_000_000_000;

    [Fact]
    public void Split_ThirdKindInTheList_RoutedToItsOwnEnvelopes()
    {
        var splitter = new Splitter(SyntheticKind.Catalog());
        var batch = BatchOf(Builders.Weather("ws-1", 1).ToByteArray(), SyntheticKind.Encode("aq-1", 1, 12.5, 30), SyntheticKind.Encode("aq-2", 4, 80, 5));

        var result = splitter.Split([new InputEvent(batch, new Readings.SourcePosition("0", 1, Now - 10))], Now, [1, 1, 2]);

        Assert.Empty(result.DeadLetters);
        Assert.Equal(["weather", "seismic", "airquality"], result.Kinds.Select(k => k.Definition.Name));
        Assert.Equal(1, result.Of(SensorKind.Weather).Readings);
        Assert.Equal(2, result.Of(SyntheticKind.Kind).Readings);
        var envelope = ForwardEnvelope.Parser.ParseFrom(result.Of(SyntheticKind.Kind).Envelopes[0].Span);
        Assert.Equal(SyntheticKind.Kind, envelope.Kind);
    }

    [Fact]
    public void Process_ThirdKindEnvelope_WritesGeoJsonWithItsMeasurements()
    {
        var kinds = SyntheticKind.Catalog();
        var split = new Splitter(kinds).Split([new InputEvent(BatchOf(SyntheticKind.Encode("aq-1", 7, 12.5, 30)), new Readings.SourcePosition("0", 1, Now - 10))], Now);
        using var processor = new EnvelopeProcessor(SyntheticKind.Kind, "airquality-processor", new StalenessPolicy(TimeSpan.FromMinutes(5)), kinds: kinds);

        var result = processor.Process([new InputEvent(Assert.Single(split.Of(SyntheticKind.Kind).Envelopes), new Readings.SourcePosition("0", 0, Now))], Now);

        Assert.Empty(result.DeadLetters);
        using var document = JsonDocument.Parse(result.Bytes(Assert.Single(result.Pending)));
        var properties = document.RootElement.GetProperty("properties");
        Assert.Equal("Feature", document.RootElement.GetProperty("type").GetString());
        Assert.Equal("aq-1", document.RootElement.GetProperty("deviceId").GetString());
        Assert.Equal("airquality", properties.GetProperty("kind").GetString());
        Assert.Equal(12.5, properties.GetProperty("pm25UgM3").GetDouble());
        Assert.Equal(30, properties.GetProperty("no2Ppb").GetDouble());
        Assert.Equal("airquality", Assert.Single(result.Latest).Kind);
    }

    [Fact]
    public void Split_ThirdKindWithTheProductsCatalog_DeadLettersItAsUnknown()
    {
        var result = new Splitter().Split([new InputEvent(BatchOf(SyntheticKind.Encode("aq-1", 1, 12.5, 30)), new Readings.SourcePosition("0", 1, Now))], Now);

        Assert.Equal(Readings.DeadLetterReason.UnknownKind, Assert.Single(result.DeadLetters).Reason);
    }

    private static byte[] BatchOf(params byte[][] readings)
    {
        var buffer = new System.Buffers.ArrayBufferWriter<byte>();
        foreach (var reading in readings)
        {
            Wire.ProtoWriter.WriteLengthDelimitedField(buffer, 1, reading);
        }

        return buffer.WrittenSpan.ToArray();
    }
}
