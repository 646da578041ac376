namespace SensorPipeline.Plan.Output;

/// <summary>A plain text table: the first column left-aligned, the others right-aligned, widths from the content.</summary>
internal sealed class Table(params string[] headers)
{
    private readonly List<string[]> _rows = [];

    public void Add(params string[] cells) => _rows.Add(cells);

    public void WriteTo(TextWriter output)
    {
        var widths = headers.Select((h, i) => Math.Max(h.Length, _rows.Count == 0 ? 0 : _rows.Max(r => r[i].Length))).ToArray();
        string Line(string[] cells) => "│ " + string.Join(" │ ", cells.Select((c, i) => i == 0 ? c.PadRight(widths[i]) : c.PadLeft(widths[i]))) + " │";
        output.WriteLine(Line(headers));
        output.WriteLine("├" + string.Join("┼", widths.Select(w => new string('─', w + 2))) + "┤");
        foreach (var row in _rows)
        {
            output.WriteLine(Line(row));
        }
    }
}
