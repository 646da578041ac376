using Google.Protobuf;
using SensorPipeline.Core.Readings;
using SensorPipeline.Devices;

namespace SensorPipeline.Explorer.Tests;

/// <summary>The explorer's sample batch is the simulated devices' (loadgen's <see cref="DeviceFleet"/>): decoded by the
/// core, it holds valid readings of every kind of the catalog, byte for byte those of a fleet built alike.</summary>
public sealed class ExplorerSampleTests
{
    private static readonly DateTimeOffset Now = new(2026, 11, 29, 3, 0, 0, TimeSpan.Zero);

    /// <summary>The readings of a sample as the core decodes them: device, kind name, sequence, validation, bytes.</summary>
    private static List<(string Device, string? Kind, ulong Sequence, DeadLetterReason Validation, byte[] Raw)> Decode(byte[] body)
    {
        Assert.Equal(DeadLetterReason.None, ReadingBatchReader.TryCheckFraming(body, out _));
        var readings = new List<(string, string?, ulong, DeadLetterReason, byte[])>();
        foreach (var raw in ReadingBatchReader.EnumerateReadings(body))
        {
            Assert.True(ReadingDecoder.TryDecode(raw, out var reading));
            readings.Add((System.Text.Encoding.UTF8.GetString(reading.DeviceIdUtf8), reading.Definition?.Name, reading.Sequence,
                ReadingValidator.Validate(reading), raw.ToArray()));
        }

        return readings;
    }

    /// <summary>A fleet built as the sample's own is: the same devices, so the same readings.</summary>
    private static DeviceFleet SameFleet() => ExplorerSample.NewFleet();

    [Fact]
    public void Next_SmallestSample_OneValidReadingOfEveryKindOfTheCatalog()
    {
        var readings = Decode(new ExplorerSample().Next(ExplorerSample.MinReadings, Now));

        var kinds = SensorKindCatalog.Default.All;
        Assert.Equal(kinds.Count, ExplorerSample.MinReadings);
        Assert.Equal(kinds.Select(k => k.Name), readings.Select(r => r.Kind));
        Assert.Equal(kinds.Select(k => DeviceFleet.DeviceId(ExplorerSample.DevicePrefix, k.Name, 0)), readings.Select(r => r.Device));
        Assert.All(readings, r => Assert.Equal(DeadLetterReason.None, r.Validation));
    }

    [Fact]
    public void Next_TwoSamples_TheSimulatedDevicesReadingsInFleetOrderWithSequencesGoingOn()
    {
        var sample = new ExplorerSample();
        var fleet = SameFleet();

        var first = Decode(sample.Next(7, Now));
        var second = Decode(sample.Next(ExplorerSample.MaxReadings, Now.AddSeconds(1)));

        Assert.Equal(Enumerable.Range(0, 7).Select(i => fleet[i].Next(Now).ToByteArray()), first.Select(r => r.Raw));
        Assert.Equal(Enumerable.Range(0, ExplorerSample.MaxReadings).Select(i => fleet[i].Next(Now.AddSeconds(1)).ToByteArray()), second.Select(r => r.Raw));
        Assert.All(first, r => Assert.Equal(1UL, r.Sequence));
        Assert.Equal([.. Enumerable.Repeat(2UL, 7), .. Enumerable.Repeat(1UL, ExplorerSample.MaxReadings - 7)], second.Select(r => r.Sequence));
        Assert.Equal(SensorKindCatalog.Default.All.Select(k => k.Name).Order(), second.Select(r => r.Kind).Distinct().Order());
        Assert.All(second, r => Assert.Equal(DeadLetterReason.None, r.Validation));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(ExplorerSample.MaxReadings + 1)]
    public void Next_OutsideTheBounds_Throws(int readings) =>
        Assert.Throws<ArgumentOutOfRangeException>(() => new ExplorerSample().Next(readings, Now));
}
