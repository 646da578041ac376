using System.Text.RegularExpressions;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace SensorPipeline.Layout.Tests;

/// <summary>
/// The handler's settings against the documentation's settings tables. A setting is <c>Section__Property</c> for every
/// options class the handler binds from a configuration section (<c>BindConfiguration(X.Section)</c> or
/// <c>GetSection(X.Section).Bind</c>), every public settable property except those the binding code then assigns from
/// another key (<c>o.P = configuration["…"]</c>: those keep the platform's names). A settings table is a Markdown table
/// whose first header cell is <c>setting</c>; a setting is documented where a row's first cell names it in backticks.
/// Read from the source with the C# parser, so the test needs no build of the handler.
/// </summary>
public static partial class SettingsDocs
{
    [GeneratedRegex(@"`(?<name>[A-Za-z]+__[A-Za-z]+)`")]
    private static partial Regex SettingName();

    /// <summary>Every <c>Section__Property</c> the handler under <paramref name="sourceFolder"/> binds.</summary>
    public static IReadOnlySet<string> Bound(string sourceFolder)
    {
        var trees = RepoProjects.Files(sourceFolder, "*.cs")
            .Select(path => CSharpSyntaxTree.ParseText(File.ReadAllText(path), path: path).GetRoot())
            .ToList();
        var classes = trees.SelectMany(t => t.DescendantNodes().OfType<ClassDeclarationSyntax>())
            .GroupBy(c => c.Identifier.Text)
            .ToDictionary(g => g.Key, g => g.First(), StringComparer.Ordinal);
        var settings = new HashSet<string>(StringComparer.Ordinal);
        foreach (var tree in trees)
        {
            var assignedElsewhere = AssignedFromConfiguration(tree);
            foreach (var name in BoundClassNames(tree))
            {
                if (classes.TryGetValue(name, out var options) && SectionOf(options) is { } section)
                {
                    settings.UnionWith(SettableProperties(options)
                        .Where(p => !assignedElsewhere.Contains(p))
                        .Select(p => $"{section}__{p}"));
                }
            }
        }

        return settings;
    }

    /// <summary>Each <c>Section__Property</c> a settings table row names, with where: <c>file:line</c>.</summary>
    public static ILookup<string, string> Documented(IReadOnlyList<MarkdownFile> files) =>
        files.SelectMany(file => TableRows(file).SelectMany(row => SettingName().Matches(row.FirstCell)
                .Select(m => (Name: m.Groups["name"].Value, Where: $"{file.Path}:{row.Line}"))))
            .ToLookup(x => x.Name, x => x.Where, StringComparer.Ordinal);

    /// <summary>One line per bound setting documented in no settings table or in more than one row, and per documented
    /// setting of a section only the handler reads (<paramref name="handlerSections"/>) that it does not bind.</summary>
    public static IReadOnlyList<string> Problems(IReadOnlySet<string> bound, ILookup<string, string> documented, IReadOnlyList<string> handlerSections)
    {
        var problems = documented
            .Where(d => handlerSections.Contains(d.Key.Split("__")[0], StringComparer.Ordinal) && !bound.Contains(d.Key))
            .Select(d => $"{d.Key} is documented ({string.Join(", ", d)}) but the handler binds no such setting")
            .ToList();
        foreach (var setting in bound.Order(StringComparer.Ordinal))
        {
            var where = documented[setting].ToList();
            if (where.Count == 0)
            {
                problems.Add($"{setting} is bound by the handler but documented in no settings table");
            }
            else if (where.Count > 1)
            {
                problems.Add($"{setting} is documented {where.Count} times ({string.Join(", ", where)}): keep one row, link to it");
            }
        }

        return problems;
    }

    private static IEnumerable<(int Line, string FirstCell)> TableRows(MarkdownFile file)
    {
        var inTable = false;
        foreach (var (number, text) in file.ProseLines())
        {
            var line = text.Trim();
            if (!line.StartsWith('|'))
            {
                inTable = false;
                continue;
            }

            var first = line.Split('|', StringSplitOptions.TrimEntries)[1];
            if (!inTable)
            {
                inTable = first.Replace("`", "", StringComparison.Ordinal).Equals("setting", StringComparison.OrdinalIgnoreCase);
                continue;
            }

            yield return (number, first);
        }
    }

    private static IEnumerable<string> BoundClassNames(SyntaxNode tree) =>
        tree.DescendantNodes().OfType<InvocationExpressionSyntax>()
            .Where(i => i.Expression is MemberAccessExpressionSyntax { Name.Identifier.Text: "BindConfiguration" or "GetSection" })
            .Select(i => i.ArgumentList.Arguments.FirstOrDefault()?.Expression)
            .OfType<MemberAccessExpressionSyntax>()
            .Where(a => a.Name.Identifier.Text == "Section")
            .Select(a => a.Expression.ToString().Split('.')[^1]);

    private static HashSet<string> AssignedFromConfiguration(SyntaxNode tree) =>
        tree.DescendantNodes().OfType<AssignmentExpressionSyntax>()
            .Where(a => a.Left is MemberAccessExpressionSyntax &&
                a.Right.DescendantNodesAndSelf().OfType<ElementAccessExpressionSyntax>().Any())
            .Select(a => ((MemberAccessExpressionSyntax)a.Left).Name.Identifier.Text)
            .ToHashSet(StringComparer.Ordinal);

    private static string? SectionOf(ClassDeclarationSyntax options) =>
        options.Members.OfType<FieldDeclarationSyntax>()
            .SelectMany(f => f.Declaration.Variables)
            .FirstOrDefault(v => v.Identifier.Text == "Section")?.Initializer?.Value is LiteralExpressionSyntax literal
            ? literal.Token.ValueText
            : null;

    private static IEnumerable<string> SettableProperties(ClassDeclarationSyntax options) =>
        options.Members.OfType<PropertyDeclarationSyntax>()
            .Where(p => p.Modifiers.Any(SyntaxKind.PublicKeyword) && !p.Modifiers.Any(SyntaxKind.StaticKeyword))
            .Where(p => p.AccessorList?.Accessors.Any(a => a.IsKind(SyntaxKind.SetAccessorDeclaration) && a.Modifiers.Count == 0) == true)
            .Select(p => p.Identifier.Text);
}
