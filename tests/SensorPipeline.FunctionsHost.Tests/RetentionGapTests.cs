namespace SensorPipeline.FunctionsHost.Tests;

/// <summary>Events that retention removed before a consumer group read them are never skipped silently: the listener
/// logs the gap (function, partition, sequence range, events lost), counts it per partition in
/// <c>/status/functions</c> (<c>retentionGaps</c>, <c>retentionGapEvents</c>) and <c>devhost status</c> prints it.</summary>
public sealed class RetentionGapTests
{
    [Fact]
    public async Task RetentionRemovesUnreadEvents_WhileFunctionIsPaused_GapIsLoggedCountedAndShown()
    {
        // The processor holds what it prefetched in memory while paused (as the SDK's does in Azure): a prefetch of one
        // event keeps the rest in the log, where retention can remove them unread.
        await using var app = new TestApp("""{"maxEventBatchSize": 1, "prefetchCount": 1}""");

        // The smallest segments and size cap the log accepts: a few hundred KB on one partition make retention drop
        // its oldest segments.
        app.ExtraSettings.AddRange(["EventHubs:SegmentSizeBytes=65536", "EventHubs:RetentionMaxBytesPerPartition=131072", "EventHubs:RetentionCheckInterval=00:00:01"]);
        Assert.Null(await app.StartAsync());
        await app.SendAsync("input", "0", "first");
        await app.WaitUntilAsync(async () => await app.CheckpointAsync("0") == 0, "checkpoint 0 on partition 0");
        using (var paused = await app.Http.PostAsync(app.At("admin/functions/Fn/pause"), null))
        {
            Assert.True(paused.IsSuccessStatusCode);
        }

        string body = new('x', 6000);
        for (var batch = 0; batch < 8; batch++)
        {
            await app.SendAsync("input", "0", [.. Enumerable.Repeat(body, 8)]);
        }

        long beginning = 0;
        await app.WaitUntilAsync(async () => (beginning = Partition(await app.DevHostStatusAsync(), "0").GetProperty("beginningSequenceNumber").GetInt64()) > 1, "retention to remove unread events");
        Assert.Equal(0, PartitionOfFn(await app.StatusAsync(), "0").GetProperty("retentionGaps").GetInt64()); // not read yet: nothing crossed

        using (var resumed = await app.Http.PostAsync(app.At("admin/functions/Fn/resume"), null))
        {
            Assert.True(resumed.IsSuccessStatusCode);
        }

        await app.WaitUntilAsync(async () => await app.CheckpointAsync("0") == 64, "the rest of partition 0 processed");
        var partition = PartitionOfFn(await app.StatusAsync(), "0");

        // The listener may have read a first batch before the pause held it; what it never received is the gap.
        var records = app.Records();
        HashSet<long> received = [.. records.Where(r => r.PartitionId == "0").SelectMany(r => r.SequenceNumbers)];
        long[] missing = [.. Enumerable.Range(1, (int)beginning - 1).Select(i => (long)i).Where(s => !received.Contains(s))];
        Assert.NotEmpty(missing);
        long lost = missing.Length;
        Assert.Equal(beginning - 1, missing[^1]);
        Assert.Equal(lost, missing[^1] - missing[0] + 1); // one contiguous range
        Assert.Equal(1, partition.GetProperty("retentionGaps").GetInt64());
        Assert.Equal(lost, partition.GetProperty("retentionGapEvents").GetInt64());
        Assert.Equal(0, PartitionOfFn(await app.StatusAsync(), "1").GetProperty("retentionGapEvents").GetInt64());
        Assert.Contains($"'Functions.Fn' partition 0 (consumer group fn): retention removed sequence {missing[0]}-{beginning - 1} ({lost} events)", app.Output, StringComparison.Ordinal);

        // The batch after the gap starts at the oldest retained event.
        Assert.Equal(beginning, records.Select(r => r.SequenceNumbers).Single(s => s.Contains(beginning))[0]);

        var (exitCode, output, errors) = await app.RunStatusCommandAsync();
        Assert.True(exitCode == 0, errors);
        var lines = output.Split('\n', StringSplitOptions.TrimEntries);
        var function = StatusTable.Row(lines, "Fn");
        Assert.Equal(lost.ToString("N0", System.Globalization.CultureInfo.InvariantCulture), function[^1]); // lost
        var row = StatusTable.Row(lines, "fn", "input", "0");
        Assert.Equal(["1", lost.ToString("N0", System.Globalization.CultureInfo.InvariantCulture)], row[9..11]); // gaps, lost
    }

    [Fact]
    public void SameGapCrossedAgainAfterARestart_CountsOnce_AWiderOneCountsOnlyTheNewPart()
    {
        var health = new SensorPipeline.FunctionsHost.Status.PartitionHealth();

        Assert.Equal(35, health.CountRetentionGap(5, 39));
        Assert.Equal(0, health.CountRetentionGap(5, 39)); // the batch redelivered from the same checkpoint
        Assert.Equal(11, health.CountRetentionGap(5, 50)); // retention removed more before the redelivery
        Assert.Equal(2, health.RetentionGaps);
        Assert.Equal(46, health.RetentionGapEvents);
    }

    private static JsonElement Partition(JsonElement devHostStatus, string id) =>
        devHostStatus.GetProperty("hubs").EnumerateArray().Single(h => h.GetProperty("name").GetString() == "input")
            .GetProperty("partitions").EnumerateArray().Single(p => p.GetProperty("id").GetString() == id);

    internal static JsonElement PartitionOfFn(JsonElement functionsStatus, string id) =>
        functionsStatus.GetProperty("functions").EnumerateArray().Single(f => f.GetProperty("name").GetString() == "Fn")
            .GetProperty("partitions").EnumerateArray().Single(p => p.GetProperty("partitionId").GetString() == id);
}
