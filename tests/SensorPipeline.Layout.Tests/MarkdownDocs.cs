using System.Text;
using System.Text.RegularExpressions;

namespace SensorPipeline.Layout.Tests;

/// <summary>One Markdown file of the repository: its path relative to the root (with '/') and its lines.</summary>
public sealed record MarkdownFile(string Path, IReadOnlyList<string> Lines)
{
    /// <summary>The lines outside fenced code blocks, each with its 1-based number: what a reader sees as text.</summary>
    public IEnumerable<(int Number, string Text)> ProseLines()
    {
        var fenced = false;
        for (var i = 0; i < Lines.Count; i++)
        {
            if (Lines[i].TrimStart().StartsWith("```", StringComparison.Ordinal))
            {
                fenced = !fenced;
                continue;
            }

            if (!fenced)
            {
                yield return (i + 1, Lines[i]);
            }
        }
    }
}

/// <summary>
/// Reads the repository's Markdown the way GitHub renders it, for the documentation tests: relative links and their
/// anchors, backticked paths, and settings tables. Build outputs, packages and git-ignored folders are left out.
/// </summary>
public static partial class MarkdownDocs
{
    /// <summary>Top-level folders of the repository: a backticked text starting with one of these is a path.</summary>
    public static readonly IReadOnlyList<string> TopFolders =
        ["functions", "core", "devhost", "emulators", "infra", "loadgen", "tests", "bench", "docs", "protos", "clients"];

    private static readonly string[] IgnoredRootFolders = ["handler", ".data", ".azure", ".pipeline"];

    [GeneratedRegex(@"(?<!\\)!?\[(?<text>[^\]]*)\]\((?<target>[^)\s]+)(?:\s+""[^""]*"")?\)")]
    private static partial Regex Link();

    [GeneratedRegex("`(?<code>[^`]+)`")]
    private static partial Regex CodeSpan();

    [GeneratedRegex(@"<a\s+(?:id|name)=""(?<id>[^""]+)""")]
    private static partial Regex HtmlAnchor();

    /// <summary>Every Markdown file under <paramref name="root"/>.</summary>
    public static IReadOnlyList<MarkdownFile> Read(string root) =>
        RepoProjects.Files(root, "*.md", folder => !IgnoredRootFolders.Contains(
                Path.GetRelativePath(root, folder).Replace('\\', '/'), StringComparer.Ordinal))
            .Select(path => new MarkdownFile(
                Path.GetRelativePath(root, path).Replace('\\', '/'),
                File.ReadAllText(path).Replace("\r\n", "\n", StringComparison.Ordinal).Split('\n')))
            .OrderBy(file => file.Path, StringComparer.Ordinal)
            .ToList();

    /// <summary>The relative links of a file (web addresses and mail links left out), each with its line number.</summary>
    public static IEnumerable<(int Line, string Target)> RelativeLinks(MarkdownFile file)
    {
        foreach (var (number, text) in file.ProseLines())
        {
            foreach (Match link in Link().Matches(WithoutCodeSpans(text)))
            {
                var target = link.Groups["target"].Value;
                if (!target.Contains("://", StringComparison.Ordinal) && !target.StartsWith("mailto:", StringComparison.Ordinal))
                {
                    yield return (number, target);
                }
            }
        }
    }

    /// <summary>The backticked texts of a file's prose, each with its line number.</summary>
    public static IEnumerable<(int Line, string Code)> CodeSpans(MarkdownFile file)
    {
        foreach (var (number, text) in file.ProseLines())
        {
            foreach (Match span in CodeSpan().Matches(text))
            {
                yield return (number, span.Groups["code"].Value);
            }
        }
    }

    /// <summary>The anchors a file offers: GitHub's slug of every heading (a repeated one numbered -1, -2, …) and every
    /// <c>&lt;a id="…"&gt;</c>.</summary>
    public static IReadOnlySet<string> Anchors(MarkdownFile file)
    {
        var anchors = new HashSet<string>(StringComparer.Ordinal);
        foreach (var (_, text) in file.ProseLines())
        {
            foreach (Match anchor in HtmlAnchor().Matches(text))
            {
                anchors.Add(anchor.Groups["id"].Value.ToLowerInvariant());
            }

            var trimmed = text.TrimStart();
            if (!trimmed.StartsWith('#'))
            {
                continue;
            }

            var heading = trimmed.TrimStart('#');
            if (heading.Length > 0 && heading[0] != ' ')
            {
                continue;
            }

            var slug = Slug(heading);
            var unique = slug;
            for (var n = 1; !anchors.Add(unique); n++)
            {
                unique = $"{slug}-{n}";
            }
        }

        return anchors;
    }

    /// <summary>GitHub's anchor for a heading: lower case, markup and punctuation dropped, spaces to hyphens.</summary>
    public static string Slug(string heading)
    {
        var text = Link().Replace(heading.Trim(), "${text}");
        var slug = new StringBuilder(text.Length);
        foreach (var c in text.ToLowerInvariant())
        {
            if (char.IsLetterOrDigit(c) || c is '-' or '_')
            {
                slug.Append(c);
            }
            else if (c == ' ')
            {
                slug.Append('-');
            }
        }

        return slug.ToString();
    }

    /// <summary>A line with its code spans blanked, so a link written as code is not taken for a link.</summary>
    private static string WithoutCodeSpans(string text) => CodeSpan().Replace(text, match => new string(' ', match.Length));
}
