using System.Buffers;
using System.Text.Json;
using SensorPipeline.Core.DeviceStates;
using SensorPipeline.Core.GeoJson;
using SensorPipeline.Core.Processing;

namespace SensorPipeline.Core.Tests;

/// <summary>The device state rebuilt from a stored reading (a crash recovery, a refused newest reading) is the live path's.</summary>
public partial class EnvelopeProcessorTests
{
    [Fact]
    public void TryWrite_StoredReadingDocument_GivesTheDeviceStateTheLivePathRenders()
    {
        using var processor = Weather();
        var result = processor.Process([Envelope((Builders.Weather("w", 7, lat: 12.25, lon: -3.5), Now))], Now);
        var live = Assert.Single(result.Latest);
        var stored = result.Pending[live.PendingIndex];
        var output = new ArrayBufferWriter<byte>();
        using var writer = new Utf8JsonWriter(output);

        Assert.True(StoredReadingState.TryWrite(result.Bytes(stored).Span, TimeSpan.FromMinutes(5), writer, out var state));

        Assert.Equal(new StoredState("w", live.Version, 7, live.ObservedAt), state);
        using var rebuilt = JsonDocument.Parse(output.WrittenMemory);
        using var rendered = JsonDocument.Parse(result.Documents.Slice(live.DocumentOffset, live.DocumentLength));
        Assert.True(JsonElement.DeepEquals(rendered.RootElement, rebuilt.RootElement), $"{rendered.RootElement}\n{rebuilt.RootElement}");
    }

    [Fact]
    public void TryWrite_ReadingDatedPastTheClockSkew_WritesNothing()
    {
        using var processor = Weather();
        var result = processor.Process([Envelope((Builders.Weather("w", 1), Now))], Now);
        var output = new ArrayBufferWriter<byte>();
        using var writer = new Utf8JsonWriter(output);

        // Observed a second after its event was enqueued: past an allowed skew of zero.
        Assert.False(StoredReadingState.TryWrite(result.Bytes(result.Pending[0]).Span, TimeSpan.Zero, writer, out _));
        Assert.Equal(0, output.WrittenCount);
    }
}
