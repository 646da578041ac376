using SensorPipeline.Emulators.Common;

namespace SensorPipeline.EventHubs.Bench;

/// <summary>In-process reads of one partition: from the recent-data cache (right after writing) and from the segment
/// files (after reopening, cache empty). Baseline (same run): reading the same segment files sequentially with a plain
/// FileStream — the disk/page-cache floor, no decoding.</summary>
internal static class ReadBench
{
    public static async Task RunAsync(BenchSettings settings, ResultTable table)
    {
        var directory = Path.Combine(Path.GetTempPath(), "sp-eh-readbench-" + Guid.NewGuid().ToString("N")[..8]);
        var config = new NamespaceConfig("bench", [new EventHubDescription("hub", 1, ["$Default"])]);
        var options = new EventLogOptions { Durability = DurabilityMode.None, CacheBytesPerPartition = 512L * 1024 * 1024 };
        try
        {
            var body = new byte[settings.BodyBytes];
            var batch = Enumerable.Range(0, 1000).Select(_ => new EventToAppend(body, null, null)).ToArray();
            await using (var ns = EventHubsNamespace.Open(config, directory, options, TimeProvider.System))
            {
                var write = Stopwatch.StartNew();
                for (var written = 0; written < settings.ReadEvents; written += batch.Length)
                {
                    await ns.AppendAsync("hub", "0", batch, default);
                }

                table.Add("in-process append (batches of 1000)", "None", 0, settings.ReadEvents / write.Elapsed.TotalSeconds, -1, -1);
                table.Add("in-process read, memory cache", "-", 0, await ReadAllAsync(ns, settings.ReadEvents), -1, -1);
            }

            await using (var reopened = EventHubsNamespace.Open(config, directory, options, TimeProvider.System))
            {
                table.Add("in-process read, segment files", "-", 0, await ReadAllAsync(reopened, settings.ReadEvents), -1, -1);
            }

            table.Add("baseline: FileStream over the same files", "-", 0, RawFileRead(Path.Combine(directory, "hub", "0"), settings.ReadEvents), -1, -1);
        }
        finally
        {
            Directory.Delete(directory, recursive: true);
        }
    }

    private static async Task<double> ReadAllAsync(EventHubsNamespace ns, int total)
    {
        var stopwatch = Stopwatch.StartNew();
        long from = 0, bytes = 0;
        while (from < total)
        {
            var events = await ns.ReadAsync("hub", "0", from, 1, 1000, TimeSpan.Zero, default);
            foreach (var e in events)
            {
                bytes += e.Body.Length; // touch every event
            }

            from += events.Count;
        }

        GC.KeepAlive(bytes);
        return total / stopwatch.Elapsed.TotalSeconds;
    }

    private static double RawFileRead(string partitionDirectory, int total)
    {
        var stopwatch = Stopwatch.StartNew();
        var buffer = new byte[1024 * 1024];
        long bytes = 0;
        foreach (var file in Directory.GetFiles(partitionDirectory, "*.log").Order(StringComparer.Ordinal))
        {
            using var stream = new FileStream(file, FileMode.Open, FileAccess.Read, FileShare.ReadWrite, 1);
            int n;
            while ((n = stream.Read(buffer)) > 0)
            {
                bytes += n;
            }
        }

        GC.KeepAlive(bytes);
        return total / stopwatch.Elapsed.TotalSeconds;
    }
}
