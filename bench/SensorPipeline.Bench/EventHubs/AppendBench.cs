using SensorPipeline.Emulators.Common;

namespace SensorPipeline.EventHubs.Bench;

/// <summary>In-process appends to one partition from N concurrent callers, per durability setting: the cost of fsync
/// (and how group commit shares it) without HTTP in the way.</summary>
internal static class AppendBench
{
    public static async Task RunAsync(BenchSettings settings, ResultTable table)
    {
        var config = new NamespaceConfig("bench", [new EventHubDescription("hub", 1, ["$Default"])]);
        var body = new byte[settings.BodyBytes];
        table.Add("baseline: append 140 B + fsync, one at a time", "-", 0, FsyncsPerSecond(TimeSpan.FromSeconds(Math.Max(1, settings.Seconds / 2))), -1, -1);
        foreach (var durability in new[] { DurabilityMode.Always, DurabilityMode.Interval, DurabilityMode.None })
        {
            foreach (var batchSize in new[] { 1, 100 })
            {
                var directory = Path.Combine(Path.GetTempPath(), "sp-eh-appendbench-" + Guid.NewGuid().ToString("N")[..8]);
                try
                {
                    await using var ns = EventHubsNamespace.Open(config, directory, new EventLogOptions { Durability = durability }, TimeProvider.System);
                    var batch = Enumerable.Range(0, batchSize).Select(_ => new EventToAppend(body, null, null)).ToArray();
                    var stopwatch = Stopwatch.StartNew();
                    var duration = TimeSpan.FromSeconds(Math.Max(1, settings.Seconds / 2));
                    var counts = await Task.WhenAll(Enumerable.Range(0, settings.Connections).Select(async _ =>
                    {
                        long appended = 0;
                        while (stopwatch.Elapsed < duration)
                        {
                            await ns.AppendAsync("hub", "0", batch, default);
                            appended += batchSize;
                        }

                        return appended;
                    }));
                    var eventsPerSecond = counts.Sum() / stopwatch.Elapsed.TotalSeconds;
                    table.Add($"in-process append, {settings.Connections} callers × batch {batchSize}", durability.ToString(), eventsPerSecond / batchSize, eventsPerSecond, -1, -1);
                }
                finally
                {
                    Directory.Delete(directory, recursive: true);
                }
            }
        }
    }

    /// <summary>The disk's own commit rate: what Always durability pays per group commit.</summary>
    private static double FsyncsPerSecond(TimeSpan duration)
    {
        var path = Path.Combine(Path.GetTempPath(), "sp-eh-fsync-" + Guid.NewGuid().ToString("N")[..8]);
        try
        {
            using var handle = File.OpenHandle(path, FileMode.CreateNew, FileAccess.ReadWrite);
            var record = new byte[140];
            long position = 0, count = 0;
            var stopwatch = Stopwatch.StartNew();
            while (stopwatch.Elapsed < duration)
            {
                RandomAccess.Write(handle, record, position);
                RandomAccess.FlushToDisk(handle);
                position += record.Length;
                count++;
            }

            return count / stopwatch.Elapsed.TotalSeconds;
        }
        finally
        {
            File.Delete(path);
        }
    }
}
