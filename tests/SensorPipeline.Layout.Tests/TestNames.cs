using System.Text.RegularExpressions;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace SensorPipeline.Layout.Tests;

/// <summary>The test methods ([Fact] and [Theory]) whose name is not Method_Scenario_Expected: exactly three parts
/// separated by single underscores, each starting with a capital letter and holding only letters and digits.
/// Parsed with the C# compiler's own parser, so comments and strings that look like tests are not counted.</summary>
public static partial class TestNames
{
    [GeneratedRegex("^[A-Z][A-Za-z0-9]*_[A-Z][A-Za-z0-9]*_[A-Z][A-Za-z0-9]*$")]
    private static partial Regex Pattern();

    public static bool Follows(string name) => Pattern().IsMatch(name);

    public static IReadOnlyList<string> NotFollowingUnder(string root, string folder)
    {
        var found = new List<string>();
        foreach (var file in Directory.EnumerateFiles(Path.Combine(root, folder), "*.cs", SearchOption.AllDirectories))
        {
            var relative = Path.GetRelativePath(root, file).Replace('\\', '/');
            if (relative.Contains("/obj/", StringComparison.Ordinal) || relative.Contains("/bin/", StringComparison.Ordinal))
            {
                continue;
            }

            found.AddRange(NotFollowing(relative, File.ReadAllText(file)));
        }

        return found;
    }

    public static IEnumerable<string> NotFollowing(string path, string source)
    {
        var tree = CSharpSyntaxTree.ParseText(source, path: path);
        foreach (var method in tree.GetRoot().DescendantNodes().OfType<MethodDeclarationSyntax>())
        {
            if (IsTest(method) && !Follows(method.Identifier.Text))
            {
                var line = method.Identifier.GetLocation().GetLineSpan().StartLinePosition.Line + 1;
                yield return $"{path}:{line} {method.Identifier.Text}";
            }
        }
    }

    private static bool IsTest(MethodDeclarationSyntax method) =>
        method.AttributeLists.SelectMany(list => list.Attributes).Any(attribute => LastName(attribute.Name) is
            "Fact" or "FactAttribute" or "Theory" or "TheoryAttribute");

    private static string LastName(NameSyntax name) => name switch
    {
        QualifiedNameSyntax q => q.Right.Identifier.Text,
        AliasQualifiedNameSyntax a => a.Name.Identifier.Text,
        SimpleNameSyntax s => s.Identifier.Text,
        _ => name.ToString(),
    };
}
