using Spectre.Console;

namespace SensorPipeline.Stack.Chaos;

/// <summary>The one table a chaos run ends with.</summary>
public static class ChaosTable
{
    public static void Print(IReadOnlyList<ChaosRow> rows, IAnsiConsole console)
    {
        ArgumentNullException.ThrowIfNull(rows);
        ArgumentNullException.ThrowIfNull(console);
        var passed = rows.All(r => r.Passed);
        var table = new Table().Title(passed ? "[green]chaos: nothing acknowledged was lost[/]" : "[red]chaos: FAILED[/]");
        table.AddColumn("fault");
        foreach (var column in new[] { "injected", "acknowledged", "written", "archived", "dead-lettered (expected)", "unexpected", "missing",
            "duplicates absorbed", "retried invocations", "longest stall (s)", "recovery (s)", "" })
        {
            table.AddColumn(new TableColumn(column).RightAligned());
        }

        foreach (var row in rows)
        {
            table.AddRow(
                Markup.Escape(row.Fault), row.Injected == ChaosRow.WholePhase ? "every event" : N(row.Injected), N(row.Acknowledged), N(row.Written), N(row.Archived),
                $"{N(row.DeadLetteredExpected)} of {N(row.DeadLettersExpected)}", N(row.DeadLetteredUnexpected), N(row.Missing),
                N(row.DuplicatesAbsorbed), N(row.RetriedInvocations), S(row.LongestStall), row.Recovery is { } r ? S(r) : "–",
                row.Passed ? "[green]ok[/]" : "[red]FAIL[/]");
        }

        console.Write(table);
        foreach (var row in rows.Where(r => !r.Passed))
        {
            console.MarkupLine(CultureInfo.InvariantCulture, $"[red]{Markup.Escape(row.Fault)}[/]: {Markup.Escape(string.Join("; ", row.Problems))}");
        }

        console.MarkupLine("recovery: from the fault's end (restarted, thawed, storm over) until the backlog was back to its level before it; " +
            "stall: a partition with events to read whose checkpoint did not move");
    }

    private static string N(long value) => value.ToString("N0", CultureInfo.InvariantCulture);

    private static string S(TimeSpan value) => value.TotalSeconds.ToString("N1", CultureInfo.InvariantCulture);
}
