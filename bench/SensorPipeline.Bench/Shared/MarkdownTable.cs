namespace SensorPipeline.Bench;

/// <summary>A bench's result table as Markdown, each column as wide as its widest cell: text columns padded on the
/// right, figures on the left, so the printed table reads aligned in a terminal and renders in a README.</summary>
internal static class MarkdownTable
{
    /// <summary>Writes <paramref name="header"/> and <paramref name="rows"/>; the columns whose indexes are in
    /// <paramref name="textColumns"/> are left-aligned, the rest right-aligned, and with
    /// <paramref name="markRightAligned"/> the separator row marks those right-aligned for a Markdown renderer too.</summary>
    public static void Write(TextWriter output, IReadOnlyList<string> header, IReadOnlyList<string[]> rows, IReadOnlyCollection<int> textColumns, bool markRightAligned = false)
    {
        var widths = header.Select((h, i) => Math.Max(h.Length, rows.Count == 0 ? 0 : rows.Max(r => r[i].Length))).ToArray();
        output.WriteLine("| " + string.Join(" | ", header.Select((h, i) => h.PadRight(widths[i]))) + " |");
        output.WriteLine("|" + string.Join("|", widths.Select((w, i) => markRightAligned && !textColumns.Contains(i) ? " " + new string('-', w - 1) + ": " : new string('-', w + 2))) + "|");
        foreach (var row in rows)
        {
            output.WriteLine("| " + string.Join(" | ", row.Select((c, i) => textColumns.Contains(i) ? c.PadRight(widths[i]) : c.PadLeft(widths[i]))) + " |");
        }
    }
}
