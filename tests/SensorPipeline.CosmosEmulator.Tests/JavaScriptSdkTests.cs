using System.Diagnostics;

namespace SensorPipeline.CosmosEmulator.Tests;

/// <summary>The JavaScript SDK (@azure/cosmos from npm, root package.json) against the real emulator process: the
/// node test scripts tests/cosmos-js (the SDK's own tests) and tests/cosmos-compat (the same operations against the
/// former npm stand-in, answer by answer), run with the emulator's endpoint.</summary>
public sealed class JavaScriptSdkTests(EmulatorFixture fixture) : IClassFixture<EmulatorFixture>
{
    [Fact]
    public Task JavaScriptSdk_CrudQueryAndSpatialTests_Pass() =>
        RunNodeTestsAsync(Path.Combine("tests", "cosmos-js", "emulator.test.mjs"), passes: 3,
            Path.Combine("node_modules", "@azure", "cosmos"), "run `npm ci` in the repository root (./pipeline does)");

    [Fact]
    public Task Answers_ComparedWithTheNpmStandIn_SameExceptTheListedDifferences() =>
        RunNodeTestsAsync(Path.Combine("tests", "cosmos-compat", "compat.test.mjs"), passes: 5,
            Path.Combine("tests", "cosmos-compat", "node_modules", "@vercel", "cosmosdb-server"),
            "run `npm ci --prefix tests/cosmos-compat` (./pipeline test does)");

    private async Task RunNodeTestsAsync(string script, int passes, string requiredPackage, string install)
    {
        var root = RepoRoot();
        Assert.True(Directory.Exists(Path.Combine(root, requiredPackage)), $"{requiredPackage} is missing: {install}");
        var start = new ProcessStartInfo("node", ["--test", Path.Combine(root, script)])
        {
            WorkingDirectory = root,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        start.Environment["COSMOS_EMULATOR_ENDPOINT"] = fixture.Emulator.Endpoint.ToString();
        using var node = Process.Start(start)!;
        var output = node.StandardOutput.ReadToEndAsync();
        var errors = node.StandardError.ReadToEndAsync();
        await node.WaitForExitAsync().WaitAsync(TimeSpan.FromMinutes(3));
        Assert.True(node.ExitCode == 0, $"node --test {script} exited {node.ExitCode}:\n{await output}\n{await errors}");
        Assert.Contains($"# pass {passes}", await output, StringComparison.Ordinal);
    }

    private static string RepoRoot()
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "SensorPipeline.slnx")))
            {
                return directory.FullName;
            }
        }

        throw new InvalidOperationException("SensorPipeline.slnx not found above " + AppContext.BaseDirectory);
    }
}
