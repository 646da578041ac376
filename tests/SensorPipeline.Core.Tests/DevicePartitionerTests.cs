using System.Globalization;
using System.Text;
using SensorPipeline.Core.Splitting;

namespace SensorPipeline.Core.Tests;

public class DevicePartitionerTests
{
    private static readonly byte[][] Devices = [.. Enumerable.Range(0, 10_000).Select(i => Encoding.UTF8.GetBytes($"weather-{i:D5}"))];

    [Theory]
    [InlineData("dev-weather-0001", "39EBF3D5D039F47BA483F6D296EEBCCE")]
    [InlineData("dev-1", "0B288AE571CB6351DA68075FFB79736E")]
    [InlineData("ümlaut-é", "3E0C78670D38DAEF40A0EB247315C899")]
    public void PartitionOf_DeviceWithAnSdkPrintedEffectivePartitionKey_IsThatKeysSliceOfTheKeySpace(string device, string sdkEpk)
    {
        // The EPKs were printed by Microsoft.Azure.Cosmos 3.64.0 for the key [device] (hash version 2): the device goes
        // to the partition owning ⌊EPK × P / 2^126⌋, computed here independently with BigInteger.
        var epk = System.Numerics.BigInteger.Parse("0" + sdkEpk, NumberStyles.HexNumber, CultureInfo.InvariantCulture);
        foreach (var partitions in new[] { 2, 4, 32, 100 })
        {
            var expected = (int)(epk * partitions >> 126);
            Assert.Equal(expected, DevicePartitioner.PartitionOf(Encoding.UTF8.GetBytes(device), partitions));
        }
    }

    [Theory]
    [InlineData("weather-00042", 4, 2)]
    [InlineData("weather-00042", 32, 23)]
    [InlineData("seismic-00007", 4, 2)]
    [InlineData("seismic-00007", 32, 21)]
    public void PartitionOf_KnownDevice_IsTheSameInEveryProcess(string device, int partitions, int expected)
    {
        // Pinned values (computed by an independent Python implementation of MurmurHash3 x64-128 and the slice rule): a
        // change of hash would move every device to another processor partition at a deployment.
        Assert.Equal(expected, DevicePartitioner.PartitionOf(Encoding.UTF8.GetBytes(device), partitions));
    }

    [Theory]
    [InlineData(4)]
    [InlineData(32)]
    public void PartitionOf_ManyDevices_SpreadsEvenly(int partitions)
    {
        var counts = new int[partitions];
        foreach (var device in Devices)
        {
            counts[DevicePartitioner.PartitionOf(device, partitions)]++;
        }

        var mean = Devices.Length / (double)partitions;
        Assert.All(counts, c => Assert.InRange(c, mean * 0.8, mean * 1.2));
    }

    [Theory]
    [InlineData(4, 8, 0.875)]
    [InlineData(32, 40, 0.9375)]
    public void PartitionOf_PartitionsAdded_MovesTheShareTheSlicesNoLongerShare(int before, int after, double movedShare)
    {
        // Slices of the key space are not a consistent hash: going from P to M slices, a device stays only where its
        // old and new slices overlap on the same index (4 → 8: only slice 0's first half, 1/8). The share is the
        // measure of the key space where ⌊x·P⌋ ≠ ⌊x·M⌋, checked against the devices' actual moves.
        var moved = Devices.Count(d => DevicePartitioner.PartitionOf(d, before) != DevicePartitioner.PartitionOf(d, after));
        Assert.InRange(moved, Devices.Length * (movedShare - 0.03), Devices.Length * (movedShare + 0.03));
    }

    [Fact]
    public void PartitionOf_OnePartition_IsZero() => Assert.Equal(0, DevicePartitioner.PartitionOf("any"u8, 1));
}
