using System.Xml.Linq;

namespace SensorPipeline.Layout.Tests;

/// <summary>One project file of the repository: its name, the folder it sits in (relative to the root, with '/'),
/// and the names of the projects it references.</summary>
public sealed record ProjectFile(string Name, string Folder, IReadOnlyList<string> References)
{
    /// <summary>The top-level folder, e.g. <c>emulators</c>.</summary>
    public string TopFolder => Folder.Split('/')[0];
}

/// <summary>Reads every project file under the repository root (build outputs and packages excluded).</summary>
public static class RepoProjects
{
    private static readonly string[] Skipped = ["bin", "obj", "artifacts", "node_modules", ".git", ".pipeline"];

    public static IReadOnlyList<ProjectFile> Read(string root)
    {
        var files = new List<ProjectFile>();
        foreach (var path in Files(root, "*.csproj"))
        {
            var folder = Path.GetRelativePath(root, Path.GetDirectoryName(path)!).Replace('\\', '/');
            var references = XDocument.Load(path).Descendants("ProjectReference")
                .Select(r => Path.GetFileNameWithoutExtension((string?)r.Attribute("Include") ?? ""))
                .Where(name => name.Length > 0)
                .ToList();
            files.Add(new ProjectFile(Path.GetFileNameWithoutExtension(path), folder, references));
        }

        return files;
    }

    /// <summary>Every file matching <paramref name="pattern"/> under <paramref name="directory"/>, build outputs and
    /// packages left out; <paramref name="descend"/>, when given, says which other folders to enter.</summary>
    public static IEnumerable<string> Files(string directory, string pattern, Func<string, bool>? descend = null)
    {
        foreach (var file in Directory.EnumerateFiles(directory, pattern))
        {
            yield return file;
        }

        foreach (var child in Directory.EnumerateDirectories(directory))
        {
            if (!Skipped.Contains(Path.GetFileName(child)) && (descend is null || descend(child)))
            {
                foreach (var file in Files(child, pattern, descend))
                {
                    yield return file;
                }
            }
        }
    }
}
