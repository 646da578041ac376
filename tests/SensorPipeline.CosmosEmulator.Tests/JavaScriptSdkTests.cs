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
        Assert.True(Directory.Exists(RepoLayout.Current.File(requiredPackage)), $"{requiredPackage} is missing: {install}");
        await using var node = await NodeTestRun.RunAsync(script,
            new Dictionary<string, string?>
            {
                ["COSMOS_EMULATOR_ENDPOINT"] = fixture.Emulator.Endpoint.ToString(),
                // The emulator's own certificate, trusted by the process as the handler's SSL_CERT_DIR does (clients/README.md).
                ["NODE_EXTRA_CA_CERTS"] = Path.Combine(fixture.Emulator.TrustDirectory, "emulator.pem"),
            }, TimeSpan.FromMinutes(3));
        Assert.True(node.ExitCode == 0, $"node --test {script} exited {node.ExitCode}:\n{node.Output}");
        Assert.Contains($"# pass {passes}", node.StandardOutput, StringComparison.Ordinal);
    }
}
