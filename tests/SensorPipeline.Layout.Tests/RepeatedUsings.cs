using System.Text.RegularExpressions;
using System.Xml.Linq;

namespace SensorPipeline.Layout.Tests;

/// <summary>
/// Finds file-level usings that repeat a namespace the file's project already imports globally: the SDK's implicit
/// usings (<c>ImplicitUsings</c> is on in Directory.Build.props), the <c>&lt;Using Include&gt;</c> items of
/// Directory.Build.props and of the project (the project's one list of the namespaces most of its files import, as
/// eShop's GlobalUsings.cs), less its <c>&lt;Using Remove&gt;</c> items, and any <c>global using</c> line in its files.
/// A file another project compiles too (<c>&lt;Compile Include&gt;</c>) keeps its own usings: that project may not
/// import the same ones.
/// </summary>
public static partial class RepeatedUsings
{
    /// <summary>The implicit usings of each SDK (Microsoft.NET.Sdk.CSharp.props; the Web SDK's Sdk.Server.props adds its own).</summary>
    private static readonly string[] NetSdk = ["System", "System.Collections.Generic", "System.IO", "System.Linq", "System.Net.Http", "System.Threading", "System.Threading.Tasks"];

    private static readonly string[] WebSdk =
    [
        .. NetSdk, "System.Net.Http.Json", "Microsoft.AspNetCore.Builder", "Microsoft.AspNetCore.Hosting", "Microsoft.AspNetCore.Http",
        "Microsoft.AspNetCore.Routing", "Microsoft.Extensions.Configuration", "Microsoft.Extensions.DependencyInjection",
        "Microsoft.Extensions.Hosting", "Microsoft.Extensions.Logging",
    ];

    /// <summary>Each file line that imports a namespace its project already imports globally, as
    /// <c>path:line: using X; (global in Project.csproj)</c>.</summary>
    public static IReadOnlyList<string> In(string root)
    {
        var projects = RepoProjects.Read(root).Select(p => Path.Combine(root, p.Folder, p.Name + ".csproj"))
            .Select(path => (Path: path, Xml: XDocument.Load(path))).ToList();
        var projectFolders = projects.Select(p => Path.GetDirectoryName(p.Path)).ToHashSet(StringComparer.Ordinal);
        var shared = projects.SelectMany(CompiledFromElsewhere).ToHashSet(StringComparer.Ordinal);
        var buildProps = Path.Combine(root, "Directory.Build.props");
        var common = File.Exists(buildProps) ? XDocument.Load(buildProps) : null;
        var found = new List<string>();
        foreach (var (project, xml) in projects)
        {
            var files = RepoProjects.Files(Path.GetDirectoryName(project)!, "*.cs", child => !projectFolders.Contains(child))
                .Select(Path.GetFullPath).ToList();
            var global = GlobalNamespaces(xml, common, files);
            foreach (var file in files.Where(f => !shared.Contains(f)))
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

    private static HashSet<string> GlobalNamespaces(XDocument project, XDocument? common, List<string> files)
    {
        var implicitUsings = (string?)project.Descendants("ImplicitUsings").LastOrDefault()
            ?? (string?)common?.Descendants("ImplicitUsings").LastOrDefault();
        var sdk = (string?)project.Root?.Attribute("Sdk") ?? "";
        var global = new HashSet<string>(
            implicitUsings is "enable" or "true" ? (sdk == "Microsoft.NET.Sdk.Web" ? WebSdk : NetSdk) : [], StringComparer.Ordinal);
        foreach (var item in (common?.Descendants("Using") ?? []).Concat(project.Descendants("Using")))
        {
            if (item.Attribute("Alias") is null && item.Attribute("Static") is null && (string?)item.Attribute("Include") is { } include)
            {
                global.Add(include);
            }
            else if ((string?)item.Attribute("Remove") is { } removed)
            {
                global.Remove(removed);
            }
        }

        foreach (var file in files)
        {
            foreach (var line in File.ReadLines(file))
            {
                if (GlobalUsingLine().Match(line) is { Success: true } m)
                {
                    global.Add(m.Groups[1].Value);
                }
            }
        }

        return global;
    }

    private static IEnumerable<string> CompiledFromElsewhere((string Path, XDocument Xml) project) =>
        project.Xml.Descendants("Compile")
            .Select(c => ((string?)c.Attribute("Include"))?.Replace('\\', '/'))
            .Where(include => include is not null && include.StartsWith("..", StringComparison.Ordinal))
            .Select(include => Path.GetFullPath(Path.Combine(Path.GetDirectoryName(project.Path)!, include!)));

    [GeneratedRegex(@"^using ([A-Za-z_][A-Za-z0-9_.]*);\s*$")]
    private static partial Regex UsingLine();

    [GeneratedRegex(@"^global using ([A-Za-z_][A-Za-z0-9_.]*);\s*$")]
    private static partial Regex GlobalUsingLine();
}
