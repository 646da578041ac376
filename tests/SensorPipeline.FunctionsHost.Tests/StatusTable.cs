namespace SensorPipeline.FunctionsHost.Tests;

/// <summary>Reads <c>devhost status</c> tables the way a person does: by row.</summary>
internal static class StatusTable
{
    /// <summary>The whitespace-separated cells of the one table row that starts with these cells.</summary>
    public static string[] Row(string[] lines, params string[] leading) =>
        Assert.Single(lines.Select(l => l.Split(' ', StringSplitOptions.RemoveEmptyEntries)), c => c.Length >= leading.Length && c.AsSpan(0, leading.Length).SequenceEqual(leading));
}
