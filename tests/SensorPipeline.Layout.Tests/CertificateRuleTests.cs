namespace SensorPipeline.Layout.Tests;

/// <summary>
/// One certificate rule (clients/README.md, "Certificates"): a client trusts a local emulator's self-signed certificate
/// on loopback only, with the host name verified. .NET code does it through <c>CosmosClients</c> alone; a process is
/// given the emulator's certificate (<c>SSL_CERT_DIR</c>, <c>NODE_EXTRA_CA_CERTS</c>) and has no code of its own. Any
/// other file that decides about a certificate is a named exception, with its reason; a file named here that no longer
/// does fails too.
/// </summary>
[Trait("Category", "Fast")]
public sealed class CertificateRuleTests
{
    private static readonly string[] Decisions =
    [
        "ServerCertificateCustomValidationCallback", "RemoteCertificateValidationCallback", "DangerousAcceptAnyServerCertificateValidator",
        "rejectUnauthorized", "NODE_TLS_REJECT_UNAUTHORIZED", "checkServerIdentity",
    ];

    /// <summary>The files that decide about a certificate, and why each may.</summary>
    private static readonly Dictionary<string, string> Allowed = new(StringComparer.Ordinal)
    {
        ["clients/SensorPipeline.Clients/CosmosClients.cs"] = "the rule: a loopback emulator's self-signed certificate, its chain the one fault forgiven",
        ["bench/SensorPipeline.Bench/Cosmos/Store.cs"] = "the exception: the former npm stand-in bench cosmos compares against (CN=cosmosdb, expired, no loopback name), by its subject on loopback",
        ["tests/cosmos-compat/compat.test.mjs"] = "the exception: the same stand-in in the answer-by-answer test, by its subject on loopback",
        ["tests/SensorPipeline.CosmosEmulator.Tests/SignatureTests.cs"] = "forges the Host header to test the emulator's guard: the emulator's own certificate, pinned, on loopback",
    };

    [Fact]
    public void Files_DecidingAboutACertificate_AreTheRuleAndItsNamedExceptions()
    {
        var root = RepoLayout.Current.Root;
        var deciding = new[] { "*.cs", "*.js", "*.mjs", "*.cjs" }
            .SelectMany(pattern => RepoProjects.Files(root, pattern))
            .Where(file =>
            {
                var text = File.ReadAllText(file);
                return Decisions.Any(text.Contains);
            })
            .Select(file => Path.GetRelativePath(root, file).Replace('\\', '/'))
            .Where(file => file != "tests/SensorPipeline.Layout.Tests/CertificateRuleTests.cs")
            .Order(StringComparer.Ordinal)
            .ToList();

        Assert.Equal(Allowed.Keys.Order(StringComparer.Ordinal).ToList(), deciding);
    }
}
