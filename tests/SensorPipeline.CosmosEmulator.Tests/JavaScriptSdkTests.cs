using System.Diagnostics;

namespace SensorPipeline.CosmosEmulator.Tests;

/// <summary>The JavaScript SDK (@azure/cosmos from npm, root package.json) against the real emulator process: the
/// node test script tests/cosmos-js/emulator.test.mjs, run with the emulator's endpoint.</summary>
public sealed class JavaScriptSdkTests(EmulatorFixture fixture) : IClassFixture<EmulatorFixture>
{
    [Fact]
    public async Task TheJavaScriptSdkPassesItsCrudQueryAndSpatialTests()
    {
        var root = RepoRoot();
        Assert.True(Directory.Exists(Path.Combine(root, "node_modules", "@azure", "cosmos")), "run `npm ci` in the repository root (./pipeline does)");
        var start = new ProcessStartInfo("node", ["--test", Path.Combine(root, "tests", "cosmos-js", "emulator.test.mjs")])
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
        Assert.True(node.ExitCode == 0, $"node --test exited {node.ExitCode}:\n{await output}\n{await errors}");
        Assert.Contains("# pass 3", await output, StringComparison.Ordinal);
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
