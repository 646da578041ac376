using System.Text.RegularExpressions;

namespace SensorPipeline.Functions.Tests.Infrastructure;

/// <summary>The local Cosmos DB emulator (devhost/SensorPipeline.CosmosEmulator, its own process) on a free loopback
/// port over a fresh data directory, deleted on dispose.</summary>
internal sealed partial class CosmosStandIn : IDisposable
{
    /// <summary>The well-known emulator key, which the emulator checks every request's signature with.</summary>
    public const string EmulatorKey = "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";

    private readonly ChildProcess _process;

    private readonly string _data;

    private CosmosStandIn(ChildProcess process, Uri endpoint, string data)
    {
        _process = process;
        Endpoint = endpoint;
        _data = data;
    }

    public Uri Endpoint { get; }

    public static async Task<CosmosStandIn> StartAsync()
    {
        var data = Path.Combine(Path.GetTempPath(), "sensorpipeline-cosmos", Guid.NewGuid().ToString("N"));
        var process = ChildProcess.Start("dotnet", [RepoPaths.CosmosEmulatorDll, "--data", data, "--port", "0"], new Dictionary<string, string?>(), Announce());
        try
        {
            return new CosmosStandIn(process, await process.WaitForUrlAsync(TimeSpan.FromSeconds(60)), data);
        }
        catch
        {
            process.Dispose();
            throw;
        }
    }

    public void Freeze() => _process.Freeze();

    public void Thaw() => _process.Thaw();

    public void Dispose()
    {
        _process.Dispose();
        try
        {
            Directory.Delete(_data, recursive: true);
        }
        catch (IOException)
        {
            // A temporary directory left behind is harmless.
        }
    }

    [GeneratedRegex(@"listening on (?<url>https://127\.0\.0\.1:\d+/)")]
    private static partial Regex Announce();
}
