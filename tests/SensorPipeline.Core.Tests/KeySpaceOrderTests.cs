using System.Text;
using SensorPipeline.Core.Partitioning;
using SensorPipeline.Core.Processing;

namespace SensorPipeline.Core.Tests;

public class KeySpaceOrderTests
{
    private static PendingDocument Document(string device, DocumentTarget target = DocumentTarget.Live, int reading = 0) =>
        new(target, device, $"{device}-{reading}", 0, 0, (ulong)reading, 0, 0, 0, reading);

    private static UInt128 Epk(string device) => EffectivePartitionKey.OfString(Encoding.UTF8.GetBytes(device));

    [Fact]
    public void Of_ManyDevices_EveryIndexOnceInRisingKeyOrder()
    {
        var documents = Enumerable.Range(0, 500).Select(i => Document($"dev-{i:D5}")).ToList();

        var order = KeySpaceOrder.Of(documents);

        Assert.Equal(Enumerable.Range(0, 500), order.Order());
        var keys = order.Select(i => Epk(documents[i].DeviceId)).ToList();
        Assert.Equal(keys.Order(), keys);
    }

    [Fact]
    public void Of_ContiguousRangesOfTheKeySpace_EachRangesWritesComeTogether()
    {
        // 64 equal ranges, as a container of 64 physical partitions splits the key space: in key order a range's
        // documents form one run, so the writer hands each range's writes over together.
        var documents = Enumerable.Range(0, 2_000).Select(i => Document($"sensor-{i}")).ToList();

        var ranges = KeySpaceOrder.Of(documents).Select(i => EffectivePartitionKey.SliceOf(Epk(documents[i].DeviceId), 64)).ToList();

        var runs = 1 + ranges.Zip(ranges.Skip(1)).Count(pair => pair.First != pair.Second);
        Assert.Equal(ranges.Distinct().Count(), runs);
    }

    [Fact]
    public void Of_LiveAndArchiveDocuments_LiveFirstEachInKeyOrder()
    {
        var documents = Enumerable.Range(0, 300).Select(i => Document($"dev-{i}", i % 3 == 0 ? DocumentTarget.Archive : DocumentTarget.Live)).ToList();

        var targets = KeySpaceOrder.Of(documents).Select(i => documents[i].Target).ToList();

        Assert.Equal(200, targets.TakeWhile(t => t == DocumentTarget.Live).Count());
        Assert.All(targets.Skip(200), t => Assert.Equal(DocumentTarget.Archive, t));
    }

    [Fact]
    public void Of_OneDevicesSeveralReadings_KeepTheirBatchOrder()
    {
        var documents = new List<PendingDocument>
        {
            Document("dev-b", reading: 0), Document("dev-a", reading: 1), Document("dev-b", reading: 2), Document("dev-a", reading: 3), Document("dev-b", reading: 4),
        };

        var order = KeySpaceOrder.Of(documents);

        Assert.Equal([0, 2, 4], order.Where(i => documents[i].DeviceId == "dev-b"));
        Assert.Equal([1, 3], order.Where(i => documents[i].DeviceId == "dev-a"));
    }

    [Fact]
    public void Of_DeviceIdLongerThanTheStackBuffer_OrdersByItsKey()
    {
        var longId = new string('é', 300);
        var documents = new List<PendingDocument> { Document("dev-1"), Document(longId), Document("dev-2") };

        var order = KeySpaceOrder.Of(documents);

        var keys = order.Select(i => Epk(documents[i].DeviceId)).ToList();
        Assert.Equal(keys.Order(), keys);
        Assert.Equal(3, order.Distinct().Count());
    }

    [Fact]
    public void Of_NoDocuments_IsEmpty() => Assert.Empty(KeySpaceOrder.Of([]));
}
