using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace SensorPipeline.Layout.Tests;

/// <summary>The methods (constructors, accessors and local functions too) longer than a limit, parsed with the C#
/// compiler's own parser: from the declaration's first line to its closing brace or semicolon, attributes excluded.</summary>
public static class MethodLengths
{
    public static IReadOnlyList<string> Over(int limit, string root, IEnumerable<string> folders)
    {
        var found = new List<string>();
        foreach (var folder in folders)
        {
            foreach (var file in Directory.EnumerateFiles(Path.Combine(root, folder), "*.cs", SearchOption.AllDirectories))
            {
                var relative = Path.GetRelativePath(root, file).Replace('\\', '/');
                if (relative.Contains("/obj/", StringComparison.Ordinal) || relative.Contains("/bin/", StringComparison.Ordinal))
                {
                    continue;
                }

                found.AddRange(Over(limit, relative, File.ReadAllText(file)));
            }
        }

        return found;
    }

    public static IEnumerable<string> Over(int limit, string path, string source)
    {
        var tree = CSharpSyntaxTree.ParseText(source, path: path);
        foreach (var node in tree.GetRoot().DescendantNodes())
        {
            var (name, body) = node switch
            {
                BaseMethodDeclarationSyntax m => (Name(m), (SyntaxNode?)m.Body ?? m.ExpressionBody),
                AccessorDeclarationSyntax a => (a.Keyword.Text, (SyntaxNode?)a.Body ?? a.ExpressionBody),
                LocalFunctionStatementSyntax f => (f.Identifier.Text, (SyntaxNode?)f.Body ?? f.ExpressionBody),
                _ => (null, null),
            };
            if (name is null || body is null)
            {
                continue;
            }

            var start = FirstLineAfterAttributes(node);
            var end = tree.GetLineSpan(node.Span).EndLinePosition.Line;
            var lines = end - start + 1;
            if (lines > limit)
            {
                yield return $"{path}:{start + 1} {name}: {lines} lines (at most {limit})";
            }
        }
    }

    private static string Name(BaseMethodDeclarationSyntax method) => method switch
    {
        MethodDeclarationSyntax m => m.Identifier.Text,
        ConstructorDeclarationSyntax c => c.Identifier.Text,
        _ => method.Kind().ToString(),
    };

    private static int FirstLineAfterAttributes(SyntaxNode node)
    {
        var token = node is MemberDeclarationSyntax member && member.AttributeLists.Count > 0
            ? member.AttributeLists.Last().GetLastToken().GetNextToken()
            : node.GetFirstToken();
        return token.GetLocation().GetLineSpan().StartLinePosition.Line;
    }
}
