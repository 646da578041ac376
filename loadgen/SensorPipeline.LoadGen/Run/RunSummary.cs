using System.Globalization;
using SensorPipeline.LoadGen.Cli;
using Spectre.Console;

namespace SensorPipeline.LoadGen.Run;

/// <summary>The end-of-run table.</summary>
internal static class RunSummary
{
    public static void Print(RunResult result, SendOptions options, TextWriter output)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(options);
        var counts = result.Ledger.Counts;
        var latency = result.Counters.Latency;
        var seconds = Math.Max(result.Elapsed.TotalSeconds, 1e-9);
        var table = new Table().Border(TableBorder.Rounded).Title(result.Interrupted ? "loadgen: interrupted" : "loadgen: done");
        table.AddColumn("measure");
        table.AddColumn(new TableColumn("value").RightAligned());
        void Row(string name, string value) => table.AddRow(Markup.Escape(name), Markup.Escape(value));
        Row("target", result.Ledger.Target);
        Row("elapsed", result.Elapsed.TotalSeconds.ToString("F1", CultureInfo.InvariantCulture) + " s");
        Row("readings sent (201)", N(counts.ReadingsSent));
        Row("events sent (201)", N(counts.EventsSent));
        Row("sustained readings/s", (counts.ReadingsSent / seconds).ToString("F0", CultureInfo.InvariantCulture)
            + (options.Rate is { } rate ? " (target " + rate.ToString("F0", CultureInfo.InvariantCulture) + ")" : " (flat out)"));
        Row("events failed (not sent)", N(counts.EventsFailed) + " (" + N(counts.ReadingsFailed) + " readings)");
        Row("events unconfirmed", N(counts.EventsUnconfirmed));
        Row("retries", N(counts.Retries));
        Row("duplicate events sent", N(counts.DuplicateEventsSent) + " (" + N(counts.DuplicateReadingsSent) + " readings)");
        Row("poison / oversize sent", N(counts.PoisonSent) + " / " + N(counts.OversizeSent));
        if (counts.TruncatedSent + counts.OutOfRangeSent + counts.ForgedSent > 0)
        {
            Row("truncated / out-of-range / forged sent", N(counts.TruncatedSent) + " / " + N(counts.OutOfRangeSent) + " / " + N(counts.ForgedSent));
        }

        Row("send latency p50 / p90 / p99 / max", string.Join(" / ", new[] { latency.Percentile(0.5), latency.Percentile(0.9), latency.Percentile(0.99), latency.Max }
            .Select(t => t.TotalMilliseconds.ToString("F1", CultureInfo.InvariantCulture))) + " ms");
        Row("loadgen CPU per reading", counts.ReadingsSent == 0 ? "-"
            : (counts.CpuSeconds * 1e6 / counts.ReadingsSent).ToString("F1", CultureInfo.InvariantCulture) + " µs (" + counts.CpuSeconds.ToString("F1", CultureInfo.InvariantCulture) + " s CPU)");
        if (options.Ledger is { } ledger)
        {
            Row("ledger", Path.GetFullPath(ledger));
        }

        if (result.PauseFailed)
        {
            Row("pause control", "FAILED (see log)");
        }

        TableOutput.Write(table, output);
    }

    private static string N(long value) => value.ToString("N0", CultureInfo.InvariantCulture);
}
