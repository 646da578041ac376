using System.Text;
using SensorPipeline.Core.Splitting;

namespace SensorPipeline.Core.Tests;

public class DevicePartitionerTests
{
    private static readonly byte[][] Devices = [.. Enumerable.Range(0, 10_000).Select(i => Encoding.UTF8.GetBytes($"weather-{i:D5}"))];

    [Theory]
    [InlineData("weather-00042", 4, 2)]
    [InlineData("weather-00042", 32, 18)]
    [InlineData("seismic-00007", 4, 0)]
    [InlineData("seismic-00007", 32, 4)]
    public void PartitionOf_KnownDevice_IsTheSameInEveryProcess(string device, int partitions, int expected)
    {
        // Pinned values (computed by an independent Python implementation of FNV-1a 64 and jump hashing): a change of
        // hash would move every device to another processor partition at a deployment.
        Assert.Equal(expected, DevicePartitioner.PartitionOf(Encoding.UTF8.GetBytes(device), partitions));
    }

    [Fact]
    public void Fnv1a_ReferenceVector_MatchesThePublishedValue()
    {
        // FNV-1a 64 of "a" is 0xaf63dc4c8601ec8c (the reference test vectors of the FNV authors).
        Assert.Equal(0xaf63dc4c8601ec8cUL, DevicePartitioner.Fnv1a("a"u8));
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
    [InlineData(4, 8)]
    [InlineData(32, 40)]
    public void PartitionOf_PartitionsAdded_MovesOnlyTheNewPartitionsShareToThem(int before, int after)
    {
        var moved = 0;
        foreach (var device in Devices)
        {
            var old = DevicePartitioner.PartitionOf(device, before);
            var now = DevicePartitioner.PartitionOf(device, after);
            if (old != now)
            {
                moved++;
                Assert.InRange(now, before, after - 1);
            }
        }

        var share = (after - before) / (double)after;
        Assert.InRange(moved, Devices.Length * share * 0.9, Devices.Length * share * 1.1);
    }

    [Fact]
    public void PartitionOf_OnePartition_IsZero() => Assert.Equal(0, DevicePartitioner.PartitionOf("any"u8, 1));
}
