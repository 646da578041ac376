using System.Text.RegularExpressions;

namespace SensorPipeline.EndToEnd.Tests;

/// <summary>
/// The forms of <c>./pipeline</c> that <c>./pipeline help</c> lists for tests, run as a user runs them: each exits 0
/// with its closing count when its tests pass, and a wrong form exits 2 (the usage code of every program) saying what is wrong. The script runs
/// with its own state folder (PIPELINE_STATE), so it never touches the results of the run it is part of.
/// </summary>
[Collection(StackCollections.Commands)]
public sealed class PipelineScriptTests : IDisposable
{
    private readonly TempDirectory _state = new();

    public void Dispose() => _state.Dispose();

    private async Task<(int ExitCode, string Output)> RunAsync(params string[] arguments)
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(6));
        var layout = RepoLayout.Discover();
        await using var run = ChildProcess.Start(new ChildProcessOptions
        {
            Name = "pipeline", FileName = "bash", Arguments = [Path.Combine(layout.Root, "pipeline"), .. arguments],
            WorkingDirectory = layout.Root,
            Environment = new Dictionary<string, string?> { ["PIPELINE_STATE"] = _state.Path, ["PIPELINE_INSTALL_BROWSER"] = "0" },
        });
        return (await run.WaitForExitAsync(timeout.Token), run.Output);
    }

    [Fact]
    public async Task Help_Run_ListsEveryCommandTheScriptDispatches()
    {
        var (exitCode, output) = await RunAsync("help");

        Assert.Equal(0, exitCode);
        foreach (var command in new[] { "test", "bench", "demo", "chaos", "up", "package", "redrive", "plan", "fuzz" })
        {
            Assert.Contains($"./pipeline {command}", output, StringComparison.Ordinal);
        }
    }

    /// <summary>Every bench is listed; those the script prepares for (the stack built, the package made, npm packages
    /// installed) or maps onto another subcommand have their own case, the rest reach the bench program as they are
    /// (CommandLine.Tests holds the list to the program's subcommands).</summary>
    [Fact]
    public async Task Bench_NoName_ListsEveryBenchItDispatches()
    {
        var (exitCode, output) = await RunAsync("bench");

        Assert.Equal(0, exitCode);
        var script = await File.ReadAllTextAsync(Path.Combine(RepoLayout.Discover().Root, "pipeline"));
        foreach (var bench in new[] { "core", "functions", "cpu", "ranges", "backlog", "scale", "affinity", "e2e", "cost", "eventhubs", "senders", "cosmos", "functionshost", "coldstart", "all" })
        {
            Assert.Matches($@"(?m)^  {bench} ", output);
        }

        foreach (var bench in new[] { "cpu", "ranges", "backlog", "scale", "affinity", "e2e", "cost", "senders", "cosmos", "coldstart", "all" })
        {
            Assert.Matches($@"(?m)^\s+([a-z|]+\|)?{bench}(\|[a-z|]+)?\)", script);
        }

        Assert.Matches(@"(?m)^\s+\*\) run_bench ""\$which"" ""\$@"" ;;", script);
    }

    [Fact]
    public async Task TestInfra_NamePattern_GateAndMatchingTestsPassExitsZeroWithTheirCount()
    {
        // The suite's own run (./pipeline test) runs every infra test; this one checks the script's infra mode: the
        // Bicep gate, then only the node tests named by the pattern, counted on the closing line.
        var (exitCode, output) = await RunAsync("test", "infra", "--", "host.json extension bundle");

        Assert.True(exitCode == 0, output);
        Assert.Contains("compiling and linting infra/main.bicep", output, StringComparison.Ordinal);
        var count = Regex.Match(output, @"tests: (?<passed>[0-9]+) passed, 0 failed");
        Assert.True(count.Success, output);
        Assert.InRange(int.Parse(count.Groups["passed"].Value, CultureInfo.InvariantCulture), 1, 10);
    }

    [Theory]
    [InlineData(new[] { "test", "--bogus" }, "unknown option '--bogus'")]
    [InlineData(new[] { "test", "NoSuchProject" }, "test project 'NoSuchProject': none match")]
    [InlineData(new[] { "nonsense" }, "unknown command 'nonsense'")]
    public async Task Run_WrongForm_ExitsWithUsageNamingTheProblem(string[] arguments, string expected)
    {
        var (exitCode, output) = await RunAsync(arguments);

        Assert.Equal(2, exitCode);
        Assert.Contains(expected, output, StringComparison.Ordinal);
    }
}
