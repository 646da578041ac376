namespace SensorPipeline.CosmosEmulator.Bench;

/// <summary>The table: one row per store and operation, then each store's memory and its answer to a missing read.</summary>
internal static class Report
{
    public static void Print(TextWriter output, IReadOnlyList<StoreFigures> figures, BenchArguments settings)
    {
        var inv = CultureInfo.InvariantCulture;
        output.WriteLine(string.Create(inv,
            $"Cosmos DB stores, .NET SDK in Gateway mode, {settings.Concurrency} requests in flight, GeoJSON reading documents over {settings.Devices:N0} devices"));
        output.WriteLine();
        string[] header = ["store", "operation", "documents", "docs/s", "store CPU µs/doc"];
        var rows = figures.SelectMany(f => f.Rows).Select(r => r.Unsupported is { } reason
            ? new[] { r.Store, r.Operation, "-", "unsupported", reason }
            : [r.Store, r.Operation, r.Documents.ToString("N0", inv), (r.Documents / r.Seconds).ToString("N0", inv),
                r.StoreCpuSeconds is { } cpu ? (cpu * 1e6 / r.Documents).ToString("N0", inv) : "-"]).ToList();
        MarkdownTable.Write(output, header, rows, textColumns: [0, 1], markRightAligned: true);

        output.WriteLine();
        foreach (var f in figures)
        {
            var rss = f.RssMegabytesAfterLoad is { } mb ? mb.ToString("N0", inv) + " MB" : "unknown";
            output.WriteLine(string.Create(inv,
                $"{f.Store.Description}: RSS {rss} after loading {f.LoadedDocuments:N0} documents; a read of a missing document answers {(int)f.MissingReadStatus}"));
        }
    }
}
