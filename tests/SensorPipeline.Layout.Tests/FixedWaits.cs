using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace SensorPipeline.Layout.Tests;

/// <summary>
/// The fixed waits in test code — calls of <c>Task.Delay</c> and <c>Thread.Sleep</c> — found with the C# compiler's own
/// parser, each named by its file and the member holding it. A test that waits for something polls through
/// <c>Eventually</c> (devhost/SensorPipeline.Toolkit) or awaits a signal; a fixed wait is allowed only where it is
/// not a wait for a result (<see cref="Allowed"/>, each with its reason).
/// </summary>
public static class FixedWaits
{
    /// <summary>The fixed waits that gate no assertion: per file, how many and why each is a fixed time (by file, so
    /// a renamed test keeps its entry; a new wait in the same file changes the count and fails).</summary>
    public static readonly IReadOnlyDictionary<string, (int Count, string Reason)> Allowed = new Dictionary<string, (int, string)>(StringComparer.Ordinal)
    {
        ["tests/SensorPipeline.FunctionsHost.Tests/ProcessorTests.cs"] =
            (1, "spaces two sends 200 ms apart, the input the test is about (two events arriving separately are held together by the SDK processor's minimum batch size)"),
        ["tests/SensorPipeline.FunctionsHost.Tests/TargetScalerTests.cs"] =
            (1, "the scale controller's decision interval: the test's loop drives the scaler at its own cadence, as the controller does"),
        ["tests/SensorPipeline.FunctionsHost.Tests/ProcessCpuTests.cs"] =
            (1, "the assertion is about time itself: a process's age read a second apart grows by that second"),
        ["tests/SensorPipeline.LoadGen.Tests/RedriveTests.cs"] =
            (1, "readings become stale only by ageing past the max age on the wall clock the handler reads"),
    };

    /// <summary>Every fixed wait under <paramref name="folder"/> of <paramref name="root"/>, as "file: member".</summary>
    public static IReadOnlyList<string> Under(string root, string folder)
    {
        var found = new List<string>();
        foreach (var file in Directory.EnumerateFiles(Path.Combine(root, folder), "*.cs", SearchOption.AllDirectories))
        {
            var relative = Path.GetRelativePath(root, file).Replace('\\', '/');
            if (!relative.Contains("/obj/", StringComparison.Ordinal) && !relative.Contains("/bin/", StringComparison.Ordinal))
            {
                found.AddRange(In(relative, File.ReadAllText(file)));
            }
        }

        return found;
    }

    /// <summary>Every fixed wait in one source file, as "path: member" (one entry per call).</summary>
    public static IEnumerable<string> In(string path, string source)
    {
        var tree = CSharpSyntaxTree.ParseText(source, path: path);
        foreach (var call in tree.GetRoot().DescendantNodes().OfType<InvocationExpressionSyntax>())
        {
            if (call.Expression is MemberAccessExpressionSyntax { Name.Identifier.Text: var name } access
                && ((name == "Delay" && access.Expression.ToString().EndsWith("Task", StringComparison.Ordinal))
                    || (name == "Sleep" && access.Expression.ToString().EndsWith("Thread", StringComparison.Ordinal))))
            {
                yield return $"{path}: {Member(call)}";
            }
        }
    }

    private static string Member(SyntaxNode node) => node.Ancestors().Select(a => a switch
    {
        MethodDeclarationSyntax m => m.Identifier.Text,
        LocalFunctionStatementSyntax f => f.Identifier.Text,
        ConstructorDeclarationSyntax c => c.Identifier.Text,
        PropertyDeclarationSyntax p => p.Identifier.Text,
        _ => null,
    }).FirstOrDefault(n => n is not null) ?? "(file level)";
}
