namespace SensorPipeline.Layout.Tests;

public sealed class LayoutTests
{
    private static readonly string Root = RepoLayout.Current.Root;

    private static ProjectFile Project(string folder) => new(folder.Split('/')[^1], folder, []);

    [Fact]
    public void Violations_EveryProjectFile_FollowsTheReferenceMatrix()
    {
        var projects = RepoProjects.Read(Root);

        Assert.True(projects.Count >= 20, $"found only {projects.Count} project files under {Root}");
        var violations = ReferenceMatrix.Violations(projects);
        Assert.True(violations.Count == 0, string.Join(Environment.NewLine, violations));
    }

    [Theory]
    [InlineData("loadgen/SensorPipeline.LoadGen", "emulators/SensorPipeline.EventHubs")]
    [InlineData("functions/SensorPipeline.Functions", "clients/SensorPipeline.Clients")]
    [InlineData("core/SensorPipeline.Core", "functions/SensorPipeline.Functions")]
    [InlineData("emulators/SensorPipeline.CosmosEmulator", "emulators/SensorPipeline.EventHubs")]
    [InlineData("emulators/SensorPipeline.Emulators.Common", "clients/SensorPipeline.Clients")]
    [InlineData("clients/SensorPipeline.Clients", "emulators/SensorPipeline.Emulators.Common")]
    [InlineData("devhost/SensorPipeline.Stack", "tests/SensorPipeline.EndToEnd.Tests")]
    [InlineData("tests/SensorPipeline.Core.Tests", "bench/SensorPipeline.Bench")]
    [InlineData("scratch/SensorPipeline.Anything", "core/SensorPipeline.Core")]
    [InlineData("cli/SensorPipeline.CommandLine", "core/SensorPipeline.Core")]
    [InlineData("core/SensorPipeline.Core", "cli/SensorPipeline.CommandLine")]
    [InlineData("emulators/SensorPipeline.Emulators.Common", "cli/SensorPipeline.CommandLine")]
    public void Violation_ForbiddenReference_IsNamed(string from, string to)
    {
        var why = ReferenceMatrix.Violation(Project(from), Project(to));

        Assert.NotNull(why);
        Assert.Contains(from.Split('/')[^1], why, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("functions/SensorPipeline.Functions", "core/SensorPipeline.Core")]
    [InlineData("loadgen/SensorPipeline.LoadGen", "clients/SensorPipeline.Clients")]
    [InlineData("emulators/SensorPipeline.EventHubs", "emulators/SensorPipeline.Emulators.Common")]
    [InlineData("emulators/SensorPipeline.CosmosEmulator", "emulators/SensorPipeline.CosmosEmulator.Query")]
    [InlineData("devhost/SensorPipeline.DevHost", "emulators/SensorPipeline.FunctionsHost")]
    [InlineData("tests/SensorPipeline.EndToEnd.Tests", "devhost/SensorPipeline.Stack")]
    [InlineData("infra/SensorPipeline.Plan", "cli/SensorPipeline.CommandLine")]
    [InlineData("emulators/SensorPipeline.CosmosEmulator", "cli/SensorPipeline.CommandLine")]
    [InlineData("loadgen/SensorPipeline.LoadGen", "cli/SensorPipeline.CommandLine")]
    [InlineData("devhost/SensorPipeline.DevHost", "cli/SensorPipeline.CommandLine")]
    [InlineData("bench/SensorPipeline.Bench", "cli/SensorPipeline.CommandLine")]
    public void Violation_AllowedReference_IsNull(string from, string to) =>
        Assert.Null(ReferenceMatrix.Violation(Project(from), Project(to)));

    [Fact]
    public void Violations_ReferenceToNoProject_IsNamed()
    {
        var projects = new[] { new ProjectFile("SensorPipeline.LoadGen", "loadgen/SensorPipeline.LoadGen", ["SensorPipeline.Gone"]) };

        Assert.Contains(ReferenceMatrix.Violations(projects), v => v.Contains("SensorPipeline.Gone", StringComparison.Ordinal));
    }

    [Fact]
    public void ProjectMaps_EveryFolderWithProjects_NamesExactlyItsProjects()
    {
        var problems = new List<string>();
        foreach (var folder in RepoProjects.Read(Root).GroupBy(p => p.TopFolder))
        {
            var readme = Path.Combine(Root, folder.Key, "README.md");
            if (!File.Exists(readme))
            {
                problems.Add($"{folder.Key}/README.md is missing: it must open with the folder's project map");
                continue;
            }

            var mapped = ProjectMap.Read(File.ReadAllText(readme));
            problems.AddRange(ProjectMap.Compare($"{folder.Key}/README.md", mapped, folder.Select(p => p.Name).ToList()));
        }

        Assert.True(problems.Count == 0, string.Join(Environment.NewLine, problems));
    }

    [Fact]
    public void Compare_UnmappedAndMissingProjects_AreBothNamed()
    {
        var mapped = ProjectMap.Read("# x\n\n| project | what |\n|---|---|\n| `A` | a |\n| `Gone` | b |\n\ntext\n| `NotInTable` |");

        var problems = ProjectMap.Compare("x/README.md", mapped, ["A", "New"]);

        Assert.Equal(["A", "Gone"], mapped);
        Assert.Equal(2, problems.Count);
        Assert.Contains(problems, p => p.Contains("does not name New", StringComparison.Ordinal));
        Assert.Contains(problems, p => p.Contains("names Gone", StringComparison.Ordinal));
    }

    [Fact]
    public void Compare_ReadmeWithoutMap_SaysSo() =>
        Assert.Contains(ProjectMap.Compare("x/README.md", ProjectMap.Read("# x\nno table"), ["A"]),
            p => p.Contains("no project map", StringComparison.Ordinal));
}
