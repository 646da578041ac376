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
        var widths = header.Select((h, i) => Math.Max(h.Length, rows.Count == 0 ? 0 : rows.Max(r => r[i].Length))).ToArray();
        output.WriteLine("| " + string.Join(" | ", header.Select((h, i) => h.PadRight(widths[i]))) + " |");
        output.WriteLine("|" + string.Join("|", widths.Select((w, i) => i < 2 ? new string('-', w + 2) : " " + new string('-', w - 1) + ": ")) + "|");
        foreach (var row in rows)
        {
            output.WriteLine("| " + string.Join(" | ", row.Select((c, i) => i < 2 ? c.PadRight(widths[i]) : c.PadLeft(widths[i]))) + " |");
        }

        output.WriteLine();
        foreach (var f in figures)
        {
            var rss = f.RssMegabytesAfterLoad is { } mb ? mb.ToString("N0", inv) + " MB" : "unknown";
            output.WriteLine(string.Create(inv,
                $"{f.Store.Description}: RSS {rss} after loading {f.LoadedDocuments:N0} documents; a read of a missing document answers {(int)f.MissingReadStatus}"));
        }
    }
}
