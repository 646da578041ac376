namespace SensorPipeline.Layout.Tests;

/// <summary>No method outside the tests is longer than 60 lines — the product (core/, functions/), the local stand-ins
/// (emulators/, devhost/), loadgen, clients, infra's planner and the benches: a longer one does several jobs.</summary>
public sealed class MethodLengthTests
{
    private const int Limit = 60;

    [Fact]
    public void Over_EveryFolderButTests_NoMethodLongerThanTheLimit()
    {
        var root = RepoLayout.Current.Root;

        var tooLong = MethodLengths.Over(Limit, root, ["core", "functions", "emulators", "devhost", "loadgen", "clients", "infra", "bench"]);

        Assert.True(tooLong.Count == 0, string.Join(Environment.NewLine, tooLong));
    }

    [Fact]
    public void Over_MethodsOfSixtyOneAndSixtyLines_OnlyTheLongerNamed()
    {
        static string Method(string name, int bodyLines) =>
            $"void {name}()\n{{\n{string.Concat(Enumerable.Repeat("    x++;\n", bodyLines))}}}\n";
        var source = "class C\n{\n    int x;\n    [Obsolete]\n    " + Method("Long", 58) + Method("Fits", 57) + "    int P { get { return 1; } }\n}\n";

        var found = MethodLengths.Over(Limit, "c.cs", source).ToList();

        var only = Assert.Single(found);
        Assert.StartsWith("c.cs:5 Long: 61 lines", only, StringComparison.Ordinal);
    }
}
