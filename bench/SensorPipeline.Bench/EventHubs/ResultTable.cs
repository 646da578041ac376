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

    public void Print(TextWriter output) =>
        MarkdownTable.Write(output, ["scenario", "durability", "requests/s", "events/s", "p50 ms", "p99 ms"], _rows, textColumns: [0, 1]);
}
