using System.Text.RegularExpressions;
using SensorPipeline.Toolkit;

namespace SensorPipeline.CommandLine.Tests;

/// <summary>
/// Every program of the repository as a user runs it: <c>--help</c> (on each command) exits 0 and lists the options,
/// and a wrong form exits 2 with a message naming the option, having run nothing.
/// </summary>
public sealed class ProgramCommandLineTests
{
    /// <summary>The programs by the name the tests use: their project and built file.</summary>
    private static readonly Dictionary<string, (string Project, string File)> Programs = new()
    {
        ["devhost"] = ("SensorPipeline.DevHost", "SensorPipeline.DevHost.dll"),
        ["stack"] = ("SensorPipeline.Stack", "stack.dll"),
        ["cosmos-emulator"] = ("SensorPipeline.CosmosEmulator", "SensorPipeline.CosmosEmulator.dll"),
        ["plan"] = ("SensorPipeline.Plan", "plan.dll"),
        ["loadgen"] = ("SensorPipeline.LoadGen", "loadgen.dll"),
        ["bench"] = ("SensorPipeline.Bench", "SensorPipeline.Bench.dll"),
    };

    private static async Task<(int ExitCode, string Output, string Errors)> RunAsync(string program, string[] arguments)
    {
        var layout = RepoLayout.Current;
        var (project, file) = Programs[program];
        await using var run = await ChildProcess.RunAsync(new ChildProcessOptions
        {
            Name = program,
            FileName = "dotnet",
            Arguments = [layout.RequireBuilt(project, file), .. arguments],
            WorkingDirectory = layout.Root,
            Environment = new Dictionary<string, string?> { ["DOTNET_NOLOGO"] = "1" },
        }, TimeSpan.FromMinutes(2));
        return (run.ExitCode, run.StandardOutput, run.StandardError);
    }

    public static TheoryData<string, string[], string[]> Helps => new()
    {
        { "devhost", ["--help"], ["--app-root", "--data", "--port", "--hubs", "--set", "instance", "status"] },
        { "devhost", ["instance", "--help"], ["--devhost", "--app-root", "--data", "--instance-id", "--function", "--port", "--set"] },
        { "devhost", ["status", "--help"], ["--url"] },
        { "stack", ["--help"], ["demo", "up", "chaos"] },
        { "stack", ["demo", "--help"], ["--duration", "--rate", "--instances", "--data"] },
        { "stack", ["up", "--help"], ["--port", "--instances", "--data", "--eventhubs", "--storage", "--cosmos"] },
        { "stack", ["chaos", "--help"], ["--minutes", "--rate", "--faults", "--seed", "--data"] },
        { "cosmos-emulator", ["--help"], ["--data", "--port", "--set"] },
        { "plan", ["--help"], ["--rate", "--readings-per-event", "--devices", "--retention", "--expiry", "--window", "--reserved", "--zones", "--region", "--azd", "--env-file"] },
        { "loadgen", ["--help"], ["--connection", "--rate", "--duration", "--count", "verify", "redrive"] },
        { "loadgen", ["verify", "--help"], ["--ledger"] },
        { "bench", ["--help"], ["core", "functions", "backlog", "scale", "affinity", "e2e", "cost", "eventhubs", "cosmos", "functionshost"] },
        { "bench", ["core", "--help"], ["--quick"] },
        { "bench", ["functions", "--help"], ["<readings>", "<devices>", "<parallelism>", "<cpu-iterations>", "<invocation-size>", "cpu", "ranges"] },
        { "bench", ["functions", "cpu", "--help"], ["<cpu-iterations>"] },
        { "bench", ["functions", "ranges", "--help"], ["--ranges", "--partitions", "--owned", "--invocation", "--devices", "--rounds"] },
        { "bench", ["backlog", "--help"], ["--quick", "--readings", "--readings-per-event", "--devices", "--max-age", "--rounds", "--events", "--handler", "--write-parallelism", "--raw-seconds", "--ceiling-seconds", "--ceiling-rate", "--ceiling-readings"] },
        { "bench", ["scale", "--help"], ["--instances", "--readings", "--cold-readings", "--kill-readings", "--readings-per-event", "--devices", "--update-interval", "--expiration", "--package"] },
        { "bench", ["affinity", "--help"], ["<readings>", "<instances>", "<app-root>"] },
        { "bench", ["e2e", "--help"], ["--minutes", "--quick", "--write-parallelism", "--raw-parallelism", "--raw-seconds", "--ceiling-seconds", "--ceiling-rate", "--ceiling-readings", "--devices", "--readings-per-event"] },
        { "bench", ["cost", "--help"], ["--quick", "--rate", "--seconds", "--devices", "--app-root"] },
        { "bench", ["eventhubs", "--help"], ["--seconds", "--connections", "--batch", "--body", "--read-events", "senders"] },
        { "bench", ["eventhubs", "senders", "--help"], ["--seconds", "--body"] },
        { "bench", ["cosmos", "--help"], ["--docs", "--reads", "--bulk", "--concurrency", "--devices", "--read-many", "--store"] },
        { "bench", ["functionshost", "--help"], ["<iterations>"] },
    };

    [Theory]
    [MemberData(nameof(Helps))]
    public async Task Help_EachCommand_ListsItsOptionsAndExitsZero(string program, string[] arguments, string[] options)
    {
        var (exitCode, output, errors) = await RunAsync(program, arguments);

        Assert.True(exitCode == 0, $"{program} {string.Join(' ', arguments)} exited {exitCode}: {errors}");
        foreach (var option in options)
        {
            Assert.Contains(option, output, StringComparison.Ordinal);
        }
    }

    public static TheoryData<string, string[], string> WrongForms => new()
    {
        { "devhost", ["--app-root", ".", "--data", "data", "--port", "notaport"], "--port: 'notaport' is not a port number" },
        { "devhost", ["--data", "data"], "--app-root" },
        { "devhost", ["status", "--url", "http://example.com:7071"], "--url: 'http://example.com:7071' is not a loopback URL" },
        { "devhost", ["instance", "--devhost", "nope", "--app-root", ".", "--data", "d", "--instance-id", "i"], "--devhost: 'nope' is not a loopback URL" },
        { "stack", ["demo", "--duration", "soon"], "--duration: 'soon' is not a duration" },
        { "stack", ["up", "--instances", "99"], "--instances: '99' must be auto or a whole number from 1 to 32." },
        { "stack", ["chaos", "--minutes", "0.1"], "--minutes" },
        { "stack", ["up", "--bogus"], "--bogus" },
        { "stack", ["up", "--eventhubs", "my-namespace"], "--eventhubs needs --storage" },
        { "stack", ["up", "--storage", "Not An Account"], "--storage: 'Not An Account' is neither a connection string" },
        { "stack", ["sideways"], "sideways" },
        { "cosmos-emulator", ["--data", "d", "--set", "novalue"], "--set: 'novalue' is not Key=Value." },
        { "cosmos-emulator", ["--data", "d", "--port", "65536"], "--port: '65536' is not a port number" },
        { "plan", ["--rate", "fast"], "--rate: 'fast' is not a rate" },
        { "plan", ["--rate", "1000", "--bogus"], "--bogus" },
        { "loadgen", ["--duration", "soon"], "--duration: 'soon' is not a duration" },
        { "bench", ["nosuchbench"], "'nosuchbench'" },
        { "bench", ["core", "--bogus"], "--bogus" },
        { "bench", ["functions", "many"], "readings: 'many' is not a whole number" },
        { "bench", ["functions", "cpu", "0"], "cpu-iterations: '0' is not a whole number from 1" },
        { "bench", ["functions", "ranges", "--ranges", "2000"], "--ranges: '2000' is not a whole number from 1 to 1,024." },
        { "bench", ["functions", "ranges", "--owned", "40"], "--owned: 40 is more than --partitions (32)." },
        { "bench", ["backlog", "--readings", "0", "--rounds", "0"], "--readings 0 and --rounds 0 leave nothing to measure." },
        { "bench", ["backlog", "--max-age", "soon"], "--max-age: 'soon' is not a duration" },
        { "bench", ["scale", "--instances", "1,9"], "--instances: '9' in '1,9' is not a whole number from 1 to 4." },
        { "bench", ["scale", "--expiration", "1s"], "--expiration (00:00:01) must be longer than --update-interval (00:00:02)" },
        { "bench", ["affinity", "many"], "readings: 'many' is not a whole number" },
        { "bench", ["e2e", "--minutes", "0"], "--minutes: '0' is not a number from 0.1 to 60." },
        { "bench", ["cost", "--rate", "fast"], "--rate: 'fast' is not a rate" },
        { "bench", ["cost", "--app-root", "docs"], "--app-root: 'docs' holds no handler/ folder" }, // the repository's root has one once ./pipeline test has published it
        { "bench", ["eventhubs", "--body", "big"], "--body: 'big' is not a size" },
        { "bench", ["eventhubs", "senders", "--seconds", "0"], "--seconds: '0' is not a whole number from 1 to 3,600." },
        { "bench", ["cosmos", "--store", "mongo"], "mongo" },
        { "bench", ["functionshost", "-5"], "-5" },
    };

    [Theory]
    [MemberData(nameof(WrongForms))]
    public async Task Run_WrongForm_ExitsWithUsageNamingTheOption(string program, string[] arguments, string expected)
    {
        var (exitCode, _, errors) = await RunAsync(program, arguments);

        Assert.Equal(ExitCodes.Usage, exitCode);
        Assert.Contains(expected, errors, StringComparison.Ordinal);
        Assert.Contains($"{program}: ", errors, StringComparison.Ordinal);
    }

    /// <summary>The names <c>./pipeline bench</c> lists are the bench program's subcommands (with <c>functions cpu</c>,
    /// <c>functions ranges</c> and <c>eventhubs senders</c>), but for the script's own <c>coldstart</c> (node) and <c>all</c>.</summary>
    [Fact]
    public async Task Help_BenchProgram_HasEveryBenchThePipelineScriptLists()
    {
        var program = new List<string>();
        foreach (var command in new[] { Array.Empty<string>(), ["functions"], ["eventhubs"] })
        {
            var (exitCode, output, errors) = await RunAsync("bench", [.. command, "--help"]);
            Assert.True(exitCode == 0, errors);
            program.AddRange(Names(output[output.IndexOf("Commands:", StringComparison.Ordinal)..]));
        }

        await using var script = await ChildProcess.RunAsync(new ChildProcessOptions
        {
            Name = "pipeline", FileName = "bash", Arguments = [Path.Combine(RepoLayout.Current.Root, "pipeline"), "bench"], WorkingDirectory = RepoLayout.Current.Root,
        }, TimeSpan.FromMinutes(1));

        Assert.Equal(0, script.ExitCode);
        var listed = Names(script.StandardOutput).Except(["coldstart", "all"]).Order().ToList();
        Assert.True(listed.Count >= 10, script.StandardOutput);
        Assert.Equal(program.Order().ToList(), listed);
    }

    /// <summary>The first word of each line indented by exactly two spaces: a help's commands, the script's list.</summary>
    private static IEnumerable<string> Names(string text) =>
        Regex.Matches(text, @"(?m)^  ([a-z][a-z0-9]*)\b").Select(m => m.Groups[1].Value);
}
