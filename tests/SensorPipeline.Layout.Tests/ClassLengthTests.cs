namespace SensorPipeline.Layout.Tests;

/// <summary>No class outside the tests is longer than 400 lines summed over its partial files: a longer one does
/// several jobs, and spreading it over partial files meets the method limit without giving it fewer. A class that
/// must stay larger is named in <see cref="Allowed"/> with its reason.</summary>
public sealed class ClassLengthTests
{
    private const int Limit = 400;

    private static readonly string[] Folders = ["core", "functions", "emulators", "devhost", "loadgen", "clients", "infra", "bench", "cli"];

    /// <summary>The classes allowed past the limit, by full name, each with why it stays larger for now.</summary>
    public static readonly IReadOnlyDictionary<string, string> Allowed = new Dictionary<string, string>(StringComparer.Ordinal)
    {
    };

    [Fact]
    public void Measure_EveryFolderButTests_NoClassLongerThanTheLimitUnlessNamed()
    {
        var types = ClassLengths.Measure(RepoLayout.Current.Root, Folders);

        var tooLong = types.Where(t => t.Value.Lines > Limit && !Allowed.ContainsKey(t.Key))
            .OrderByDescending(t => t.Value.Lines)
            .Select(t => $"{t.Key}: {t.Value.Lines} lines (at most {Limit}) in {string.Join(", ", t.Value.Files)}")
            .ToList();
        Assert.True(tooLong.Count == 0, "classes over the limit (split them by responsibility, or name one in "
            + "ClassLengthTests.Allowed with why it must stay larger):\n" + string.Join("\n", tooLong));
    }

    [Fact]
    public void Allowed_EveryEntry_StillNamesAClassOverTheLimit()
    {
        var types = ClassLengths.Measure(RepoLayout.Current.Root, Folders);

        var stale = Allowed.Keys.Where(name => !types.TryGetValue(name, out var type) || type.Lines <= Limit)
            .Select(name => $"{name}: {(types.TryGetValue(name, out var type) ? $"{type.Lines} lines" : "not found")}")
            .ToList();
        Assert.True(stale.Count == 0, "allowed classes that are gone or within the limit now (remove them):\n" + string.Join("\n", stale));
    }

    [Fact]
    public void Measure_PartialClassOverTwoFilesAndANestedType_SumsThePartsAndCountsTheNestedInBoth()
    {
        const string First = """
            namespace N;

            [Obsolete]
            public partial class C
            {
                private int x;
            }
            """;
        const string Second = """
            namespace N
            {
                partial class C
                {
                    private sealed class Inner
                    {
                    }
                }

                record R<T>(T Value);
            }
            """;

        var types = ClassLengths.Measure([("a.cs", First), ("b.cs", Second)]);

        Assert.Equal(4 + 6, types["N.C"].Lines);
        Assert.Equal(["a.cs", "b.cs"], types["N.C"].Files);
        Assert.Equal(3, types["N.C.Inner"].Lines);
        Assert.Equal(1, types["N.R`1"].Lines);
    }
}
