namespace SensorPipeline.Layout.Tests;

/// <summary>The documentation a reader follows: links and backticked paths lead somewhere, and every setting the
/// handler binds is documented once, in one settings table, so docs link to it rather than copy it.</summary>
public sealed class DocsTests
{
    private static readonly string Root = RepoLayout.Current.Root;

    private static readonly string[] HandlerSections = ["Pipeline", "Forwarding"];

    [Fact]
    public void BrokenLinks_EveryMarkdownFile_LeadToExistingFilesAndAnchors()
    {
        var files = MarkdownDocs.Read(Root);

        Assert.True(files.Count >= 15, $"found only {files.Count} Markdown files under {Root}");
        var problems = DocLinks.BrokenLinks(Root, files);
        Assert.True(problems.Count == 0, string.Join(Environment.NewLine, problems));
    }

    [Fact]
    public void MissingPaths_EveryMarkdownFile_NameExistingFilesAndFolders()
    {
        var problems = DocLinks.MissingPaths(Root, MarkdownDocs.Read(Root));

        Assert.True(problems.Count == 0, string.Join(Environment.NewLine, problems));
    }

    [Fact]
    public void Problems_HandlerSettings_EachDocumentedInExactlyOneTableRow()
    {
        var bound = SettingsDocs.Bound(Path.Combine(Root, "functions", "SensorPipeline.Functions"));

        Assert.Contains("Pipeline__DeviceStateLag", bound);
        Assert.Contains("Forwarding__MaxRetries", bound);
        Assert.DoesNotContain("Forwarding__ConnectionString", bound);
        var problems = SettingsDocs.Problems(bound, SettingsDocs.Documented(MarkdownDocs.Read(Root)), HandlerSections);
        Assert.True(problems.Count == 0, string.Join(Environment.NewLine, problems));
    }

    [Fact]
    public void BrokenLinks_MissingFileAndAnchor_AreEachNamed()
    {
        using var repo = new TempDirectory("docs-links");
        Write(repo.Path, "docs/a.md", "# Title\n\n## Device states: one home\n\nSee [b](b.md), [gone](gone.md), [here](#device-states-one-home),\n" +
            "[no such part](#nowhere), [up](../../outside.md) and [code](https://example.com/x.md).\n\n```\n[not a link](fenced.md)\n```\n");
        Write(repo.Path, "docs/b.md", "# B\n[back](a.md#title) [bad](a.md#titel) `[not a link](code.md)`\n");

        var problems = DocLinks.BrokenLinks(repo.Path, MarkdownDocs.Read(repo.Path));

        Assert.Equal(4, problems.Count);
        Assert.Contains(problems, p => p.StartsWith("docs/a.md:5", StringComparison.Ordinal) && p.Contains("gone.md", StringComparison.Ordinal));
        Assert.Contains(problems, p => p.StartsWith("docs/a.md:6", StringComparison.Ordinal) && p.Contains("'nowhere'", StringComparison.Ordinal));
        Assert.Contains(problems, p => p.Contains("outside the repository", StringComparison.Ordinal));
        Assert.Contains(problems, p => p.StartsWith("docs/b.md:2", StringComparison.Ordinal) && p.Contains("'titel'", StringComparison.Ordinal));
    }

    [Fact]
    public void MissingPaths_PathUnderATopFolderThatIsGone_IsNamed()
    {
        using var repo = new TempDirectory("docs-paths");
        Write(repo.Path, "core/Present.cs", "");
        Write(repo.Path, "README.md", "`core/Present.cs`, `core/`, `core/*.cs`, `core/*/x.cs`, `core/Gone.cs`, `core/…/Any.cs`, `coreish/x`, `docs/none.md#x`\n");

        var problems = DocLinks.MissingPaths(repo.Path, MarkdownDocs.Read(repo.Path));

        Assert.Equal(["README.md:1 names `core/*/x.cs`, which does not exist", "README.md:1 names `core/Gone.cs`, which does not exist", "README.md:1 names `docs/none.md`, which does not exist"], problems);
    }

    [Fact]
    public void Problems_SettingMissingTwiceOrUnbound_AreEachNamed()
    {
        using var repo = new TempDirectory("docs-settings");
        Write(repo.Path, "src/Options.cs", """
            class PipelineOptions { public const string Section = "Pipeline"; public int Once { get; set; } public int Twice { get; set; }
                public int Never { get; set; } public int Fixed { get; init; } public static int Shared { get; set; } public string Key { get; set; } }
            static class Binding { static void Add(S s, IConfiguration configuration) {
                s.AddOptions<PipelineOptions>().BindConfiguration(PipelineOptions.Section).Configure(o => o.Key = configuration["KEY"]); } }
            """);
        Write(repo.Path, "docs/conventions.md", "| setting | default |\n|---|---|\n| `Pipeline__Once` | 1 |\n| `Pipeline__Twice` | 2 |\n| `Pipeline__Gone` | 3 |\n");
        Write(repo.Path, "functions/README.md", "| setting | default |\n|---|---|\n| `Pipeline__Twice` | 2 |\n\nProse naming `Pipeline__Once` is a link's job, not a row.\n");

        var bound = SettingsDocs.Bound(Path.Combine(repo.Path, "src"));
        var problems = SettingsDocs.Problems(bound, SettingsDocs.Documented(MarkdownDocs.Read(repo.Path)), HandlerSections);

        Assert.Equal(["Pipeline__Never", "Pipeline__Once", "Pipeline__Twice"], bound.Order(StringComparer.Ordinal));
        Assert.Equal(3, problems.Count);
        Assert.Contains(problems, p => p.StartsWith("Pipeline__Gone is documented (docs/conventions.md:5)", StringComparison.Ordinal));
        Assert.Contains(problems, p => p.StartsWith("Pipeline__Never is bound", StringComparison.Ordinal));
        Assert.Contains(problems, p => p.StartsWith("Pipeline__Twice is documented 2 times (docs/conventions.md:4, functions/README.md:3)", StringComparison.Ordinal));
    }

    [Theory]
    [InlineData("Azure at 100,000 readings/s: `./pipeline plan`", "azure-at-100000-readingss-pipeline-plan")]
    [InlineData("host.json — why each value", "hostjson--why-each-value")]
    [InlineData("Device states: written within W", "device-states-written-within-w")]
    [InlineData("See [the guide](x.md) first", "see-the-guide-first")]
    public void Slug_Heading_IsGitHubsAnchor(string heading, string anchor) => Assert.Equal(anchor, MarkdownDocs.Slug(heading));

    private static void Write(string root, string relative, string text)
    {
        var path = Path.Combine(root, relative);
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        File.WriteAllText(path, text);
    }
}
