using SensorPipeline.Toolkit;

namespace SensorPipeline.Fuzz.Tests;

/// <summary>
/// Every corpus input — the seed inputs and every crash afl++ found, kept as a regression input — through its target: it
/// must parse or be refused with the parser's documented error, within <see cref="PerInput"/>; never another exception,
/// a broken invariant or a hang.
/// </summary>
[Trait("Category", "Fast")]
public sealed class CorpusReplayTests
{
    /// <summary>Generous for inputs that take microseconds to milliseconds: only a hang (an endless loop) exceeds it.</summary>
    private static readonly TimeSpan PerInput = TimeSpan.FromSeconds(10);

    private static readonly string Corpus = Path.Combine(RepoLayout.Current.Root, "tests", "SensorPipeline.Fuzz", "corpus");

    public static TheoryData<string, string> Inputs()
    {
        var data = new TheoryData<string, string>();
        foreach (var target in FuzzTargets.All)
        {
            foreach (var file in Directory.GetFiles(Path.Combine(Corpus, target.Name)).Order(StringComparer.Ordinal))
            {
                data.Add(target.Name, Path.GetFileName(file));
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(Inputs))]
    public void Run_CorpusInput_ParsesOrIsRefusedWithTheDocumentedError(string target, string input)
    {
        var bytes = File.ReadAllBytes(Path.Combine(Corpus, target, input));
        Exception? failure = null;
        var worker = new Thread(() =>
        {
            try
            {
                FuzzTargets.Find(target)!.Run(bytes);
            }
            catch (Exception e)
            {
                failure = e;
            }
        }, maxStackSize: 1024 * 1024);
        worker.Start();

        Assert.True(worker.Join(PerInput), $"{target}/{input} did not finish within {PerInput.TotalSeconds} s");
        Assert.True(failure is null, $"{target}/{input}: {failure}");
    }

    [Fact]
    public void Inputs_EveryTarget_HasSeeds()
    {
        var missing = FuzzTargets.All
            .Where(t => !Directory.Exists(Path.Combine(Corpus, t.Name)) || Directory.GetFiles(Path.Combine(Corpus, t.Name), "seed-*").Length == 0)
            .Select(t => t.Name)
            .ToList();

        Assert.True(missing.Count == 0, "targets without seed inputs: " + string.Join(", ", missing));
    }

    [Fact]
    public void Run_UndocumentedException_Escapes()
    {
        var target = new FuzzTarget("t", "a test", _ => throw new ArgumentOutOfRangeException("input"), typeof(FormatException));

        Assert.Throws<ArgumentOutOfRangeException>(() => target.Run([1]));
        Assert.False(new FuzzTarget("t", "a test", _ => throw new FormatException(), typeof(FormatException)).Run([1]));
    }
}
