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
}
