namespace SensorPipeline.Layout.Tests;

/// <summary>What a reader following the documentation would hit: a relative link to a file or anchor that does not
/// exist, or a backticked path under a top-level folder that does not exist. One line per problem, naming file and line.</summary>
public static class DocLinks
{
    /// <summary>Characters that make a backticked text a pattern or a placeholder rather than one path.</summary>
    private static readonly System.Buffers.SearchValues<char> Placeholders = System.Buffers.SearchValues.Create("…<>{}$|[]()%");

    /// <summary>Relative links whose file, folder or heading anchor does not exist.</summary>
    public static IReadOnlyList<string> BrokenLinks(string root, IReadOnlyList<MarkdownFile> files)
    {
        var byPath = files.ToDictionary(f => f.Path, StringComparer.Ordinal);
        var problems = new List<string>();
        foreach (var file in files)
        {
            foreach (var (line, target) in MarkdownDocs.RelativeLinks(file))
            {
                if (Broken(root, file, target, byPath) is { } why)
                {
                    problems.Add($"{file.Path}:{line} links to {target}: {why}");
                }
            }
        }

        return problems;
    }

    /// <summary>Backticked texts starting with a top-level folder (<c>core/…</c>) that name no file or folder.</summary>
    public static IReadOnlyList<string> MissingPaths(string root, IReadOnlyList<MarkdownFile> files)
    {
        var problems = new List<string>();
        foreach (var file in files)
        {
            foreach (var (line, code) in MarkdownDocs.CodeSpans(file))
            {
                var path = code.Split(' ', 2)[0].Split('#', 2)[0];
                if (IsRepoPath(path) && !Exists(root, path))
                {
                    problems.Add($"{file.Path}:{line} names `{path}`, which does not exist");
                }
            }
        }

        return problems;
    }

    private static bool IsRepoPath(string text) =>
        text.AsSpan().IndexOfAny(Placeholders) < 0 &&
        MarkdownDocs.TopFolders.Any(top => text.StartsWith(top + "/", StringComparison.Ordinal));

    /// <summary>Whether a path relative to the root exists; a part holding <c>*</c> must match at least one entry.</summary>
    private static bool Exists(string root, string relative)
    {
        IEnumerable<string> found = [root];
        foreach (var part in relative.TrimEnd('/').Split('/'))
        {
            found = part.Contains('*', StringComparison.Ordinal)
                ? found.Where(Directory.Exists).SelectMany(folder => Directory.EnumerateFileSystemEntries(folder, part))
                : found.Select(folder => Path.Combine(folder, part)).Where(p => File.Exists(p) || Directory.Exists(p));
        }

        return found.Any();
    }

    private static string? Broken(string root, MarkdownFile file, string target, Dictionary<string, MarkdownFile> byPath)
    {
        var parts = target.Split('#', 2);
        var pathPart = Uri.UnescapeDataString(parts[0]);
        var anchor = parts.Length > 1 ? Uri.UnescapeDataString(parts[1]) : "";
        var relative = pathPart.Length == 0
            ? file.Path
            : Path.GetRelativePath(root, Path.GetFullPath(pathPart.StartsWith('/')
                ? Path.Combine(root, pathPart.TrimStart('/'))
                : Path.Combine(root, Path.GetDirectoryName(file.Path) ?? "", pathPart))).Replace('\\', '/');
        if (relative.StartsWith("..", StringComparison.Ordinal))
        {
            return "it points outside the repository";
        }

        var full = Path.Combine(root, relative);
        if (!File.Exists(full) && !Directory.Exists(full))
        {
            return $"no file or folder {relative}";
        }

        if (anchor.Length == 0 || !relative.EndsWith(".md", StringComparison.OrdinalIgnoreCase))
        {
            return null;
        }

        return byPath.TryGetValue(relative, out var linked) && MarkdownDocs.Anchors(linked).Contains(anchor.ToLowerInvariant())
            ? null
            : $"{relative} has no heading or anchor '{anchor}'";
    }
}
