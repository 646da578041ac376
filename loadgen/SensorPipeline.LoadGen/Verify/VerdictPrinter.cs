using System.Globalization;
using System.Text.Json;
using SensorPipeline.LoadGen.Cli;
using Spectre.Console;

namespace SensorPipeline.LoadGen.Verify;

/// <summary>Prints a verdict: the table for people, or JSON for scripts (<c>--json</c>).</summary>
internal static class VerdictPrinter
{
    public static void PrintJson(Verdict verdict, TextWriter output)
    {
        ArgumentNullException.ThrowIfNull(output);
        output.WriteLine(JsonSerializer.Serialize(verdict, VerdictJsonContext.Default.Verdict));
    }

    public static void PrintTable(Verdict verdict, TextWriter output)
    {
        ArgumentNullException.ThrowIfNull(verdict);
        var table = new Table().Border(TableBorder.Rounded).Title(verdict.Passed ? "verify: PASSED — nothing lost" : "verify: FAILED");
        foreach (var column in new[] { "sent", "written", "archived", "dead-lettered", "missing", "duplicated" })
        {
            table.AddColumn(new TableColumn(column).RightAligned());
        }

        table.AddRow(N(verdict.Sent), N(verdict.Written), N(verdict.Archived),
            $"{N(verdict.DeadLettered)} of {N(verdict.InjectedSent)}", N(verdict.Missing), N(verdict.Duplicated));
        TableOutput.Write(table, output);
        output.WriteLine($"devices: {verdict.Devices} checked, {verdict.DeviceMismatches} with a stale or missing latest state; other dead letters: {verdict.OtherDeadLetters}");
        if (verdict.StaleOutsideEpisodes is { } outside)
        {
            output.WriteLine(outside == 0
                ? $"stale readings: all {N(verdict.Archived)} enqueued within the run's backlog episodes or the max age before them"
                : $"stale readings outside the run's backlog episodes: {N(outside)} of {N(verdict.Archived)} archived — the chain fell more than the max age behind");
        }

        List(output, "missing", verdict.MissingIds, verdict.Missing);
        List(output, "archived though enqueued outside every backlog episode", verdict.StaleOutsideEpisodeIds, verdict.StaleOutsideEpisodes ?? 0);
        List(output, "stored more than once (readings and archive, or under two ids)", verdict.DuplicatedIds, verdict.Duplicated);
        List(output, "device state", verdict.DeviceProblems, verdict.DeviceMismatches);
        List(output, "injected events not dead-lettered (sha256)", verdict.MissingDeadLetters, verdict.InjectedSent - verdict.DeadLettered);
    }

    private static void List(TextWriter output, string title, List<string> items, long total)
    {
        if (total == 0)
        {
            return;
        }

        output.WriteLine($"{title}: {total}{(total > items.Count ? $" (first {items.Count})" : "")}");
        foreach (var item in items)
        {
            output.WriteLine("  " + item);
        }
    }

    private static string N(long value) => value.ToString("N0", CultureInfo.InvariantCulture);
}
