namespace SensorPipeline.Layout.Tests;

/// <summary>The project map at the top of a folder's README: a table whose header starts <c>| project |</c>, one row
/// per project with its name in backticks in the first column.</summary>
public static class ProjectMap
{
    /// <summary>The project names the first map table of <paramref name="readme"/> lists (empty when it has none).</summary>
    public static IReadOnlyList<string> Read(string readme)
    {
        var names = new List<string>();
        var inTable = false;
        foreach (var raw in readme.Split('\n'))
        {
            var line = raw.Trim();
            if (!inTable)
            {
                inTable = line.StartsWith("| project |", StringComparison.Ordinal);
                continue;
            }

            if (!line.StartsWith('|'))
            {
                break;
            }

            var first = line.Split('|', StringSplitOptions.TrimEntries)[1];
            if (first.Length > 2 && first[0] == '`' && first[^1] == '`')
            {
                names.Add(first[1..^1]);
            }
        }

        return names;
    }

    /// <summary>The differences between a map and the projects that exist, one line each (empty when they match).</summary>
    public static IReadOnlyList<string> Compare(string readmePath, IReadOnlyList<string> mapped, IReadOnlyList<string> existing)
    {
        var problems = existing.Except(mapped, StringComparer.Ordinal)
            .Select(name => $"{readmePath}: the project map does not name {name}")
            .Concat(mapped.Except(existing, StringComparer.Ordinal)
                .Select(name => $"{readmePath}: the project map names {name}, which is not a project in that folder"))
            .ToList();
        if (mapped.Count == 0)
        {
            problems.Insert(0, $"{readmePath}: no project map (a table whose header starts '| project |')");
        }

        return problems;
    }
}
