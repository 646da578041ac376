namespace SensorPipeline.EventHubs.Bench;

internal sealed class ResultTable
{
    private readonly List<string[]> _rows = [];

    public void Add(string scenario, string durability, double requestsPerSecond, double eventsPerSecond, double p50Ms, double p99Ms)
    {
        var inv = CultureInfo.InvariantCulture;
        _rows.Add([scenario, durability,
            requestsPerSecond > 0 ? requestsPerSecond.ToString("N0", inv) : "-",
            eventsPerSecond.ToString("N0", inv),
            p50Ms >= 0 ? p50Ms.ToString("F2", inv) : "-",
            p99Ms >= 0 ? p99Ms.ToString("F2", inv) : "-"]);
        Console.Error.WriteLine(string.Join(" | ", _rows[^1]));
    }

    public void Print(TextWriter output)
    {
        string[] header = ["scenario", "durability", "requests/s", "events/s", "p50 ms", "p99 ms"];
        var widths = header.Select((h, i) => Math.Max(h.Length, _rows.Count == 0 ? 0 : _rows.Max(r => r[i].Length))).ToArray();
        output.WriteLine("| " + string.Join(" | ", header.Select((h, i) => h.PadRight(widths[i]))) + " |");
        output.WriteLine("|" + string.Join("|", widths.Select(w => new string('-', w + 2))) + "|");
        foreach (var row in _rows)
        {
            output.WriteLine("| " + string.Join(" | ", row.Select((c, i) => i < 2 ? c.PadRight(widths[i]) : c.PadLeft(widths[i]))) + " |");
        }
    }
}
