using System.Text.RegularExpressions;
using System.Xml.Linq;

namespace SensorPipeline.Layout.Tests;

/// <summary>
/// A project's global usings (the <c>&lt;Using Include&gt;</c> items of its csproj, as eShop's GlobalUsings.cs) are
/// its one list of the namespaces most of its files import; a file that imports one of them again repeats that list.
/// A file another project compiles too (<c>&lt;Compile Include&gt;</c>) keeps its own usings: that project may not
/// declare the same ones.
/// </summary>
public static partial class GlobalUsings
{
    private static readonly string[] Skipped = ["bin", "obj", "artifacts", "node_modules", ".git", ".pipeline"];

    /// <summary>Each file line that imports a namespace its project already imports globally, as
    /// <c>path:line: using X; (global in Project.csproj)</c>.</summary>
    public static IReadOnlyList<string> Repeated(string root)
    {
        var projects = RepoProjects.Read(root).Select(p => Path.Combine(root, p.Folder, p.Name + ".csproj")).ToList();
        var projectFolders = projects.Select(Path.GetDirectoryName).ToHashSet(StringComparer.Ordinal);
        var shared = projects.SelectMany(CompiledFromElsewhere).ToHashSet(StringComparer.Ordinal);
        var found = new List<string>();
        foreach (var project in projects)
        {
            var global = XDocument.Load(project).Descendants("Using")
                .Where(u => u.Attribute("Alias") is null && u.Attribute("Static") is null)
                .Select(u => (string?)u.Attribute("Include") ?? "")
                .ToHashSet(StringComparer.Ordinal);
            foreach (var file in SourceFiles(Path.GetDirectoryName(project)!, projectFolders).Where(f => !shared.Contains(f)))
            {
                var lines = File.ReadAllLines(file);
                for (var i = 0; i < lines.Length; i++)
                {
                    if (UsingLine().Match(lines[i]) is { Success: true } m && global.Contains(m.Groups[1].Value))
                    {
                        found.Add($"{Path.GetRelativePath(root, file).Replace('\\', '/')}:{i + 1}: {lines[i].Trim()} (global in {Path.GetFileName(project)})");
                    }
                }
            }
        }

        return found;
    }

    private static IEnumerable<string> CompiledFromElsewhere(string project) =>
        XDocument.Load(project).Descendants("Compile")
            .Select(c => (string?)c.Attribute("Include"))
            .Where(include => include is not null && include.StartsWith("..", StringComparison.Ordinal))
            .Select(include => Path.GetFullPath(Path.Combine(Path.GetDirectoryName(project)!, include!)));

    private static IEnumerable<string> SourceFiles(string folder, HashSet<string?> projectFolders)
    {
        foreach (var file in Directory.EnumerateFiles(folder, "*.cs"))
        {
            yield return Path.GetFullPath(file);
        }

        foreach (var child in Directory.EnumerateDirectories(folder).Where(c => !Skipped.Contains(Path.GetFileName(c)) && !projectFolders.Contains(c)))
        {
            foreach (var file in SourceFiles(child, projectFolders))
            {
                yield return file;
            }
        }
    }

    [GeneratedRegex(@"^using ([A-Za-z_][A-Za-z0-9_.]*);\s*$")]
    private static partial Regex UsingLine();
}
