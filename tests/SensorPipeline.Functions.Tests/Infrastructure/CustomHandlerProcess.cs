using System.Text.RegularExpressions;
using SensorPipeline.Clients;

namespace SensorPipeline.Functions.Tests.Infrastructure;

/// <summary>
/// The real handler process, started as the Functions host starts it: <c>dotnet SensorPipeline.Functions.dll</c>
/// with FUNCTIONS_CUSTOMHANDLER_PORT (0 here: it prints the port it got), FUNCTIONS_APP_ROOT_PATH and the app
/// settings in its environment.
/// </summary>
internal sealed partial class CustomHandlerProcess : IHandlerUnderTest, IDisposable
{
    private readonly ChildProcess _process;

    private CustomHandlerProcess(ChildProcess process, Uri address)
    {
        _process = process;
        Address = address;
        Http = new HttpClient { BaseAddress = address, Timeout = TimeSpan.FromSeconds(60) };
    }

    public Uri Address { get; }

    public HttpClient Http { get; }

    public string Output => _process.Output;

    /// <summary>Waits for an output line matching <paramref name="pattern"/> (lines already printed included).</summary>
    public Task<Match> WaitForLineAsync(string pattern, TimeSpan timeout) => _process.WaitForLineAsync(pattern, timeout);

    /// <summary>Settings for a handler writing to <paramref name="standIn"/> in database <paramref name="database"/>.</summary>
    public static Dictionary<string, string?> Settings(CosmosEmulatorProcess standIn, string database) => new()
    {
        ["FUNCTIONS_CUSTOMHANDLER_PORT"] = "0",
        ["FUNCTIONS_APP_ROOT_PATH"] = RepoLayout.Current.Root,
        ["FUNCTIONS_WORKER_RUNTIME"] = "custom",
        ["Cosmos__AccountEndpoint"] = standIn.Endpoint.AbsoluteUri,
        ["Cosmos__AuthKey"] = CosmosEmulatorAccount.Key,
        // The handler has no code for the emulator's self-signed certificate: it trusts it as any server's, from here.
        ["SSL_CERT_DIR"] = standIn.SslCertDir,
        ["Cosmos__DatabaseName"] = database,
        ["Cosmos__CreateIfNotExists"] = "true",
        // A well-formed connection to a port nothing listens on: the client connects only when the splitter sends, and
        // tests that invoke the splitter point it at a real emulator (HubsEmulator).
        ["EventHubConnection"] = EventHubsEmulatorAccount.ConnectionString(LoopbackPort.GetFree()),
        // Device states written 100 ms after their readings, and a dead handler's mark recovered 2 s after its last renewal.
        ["Pipeline__DeviceStateLag"] = "00:00:00.100",
        ["Pipeline__DeviceStateMarkExpiry"] = "00:00:02",
        ["Logging__LogLevel__Default"] = "Warning",
        ["Logging__LogLevel__SensorPipeline"] = "Information",
    };

    public static async Task<CustomHandlerProcess> StartAsync(Dictionary<string, string?> settings)
    {
        var process = Launch(settings);
        try
        {
            return new CustomHandlerProcess(process, await process.WaitForUrlAsync(Announce(), TimeSpan.FromSeconds(60)));
        }
        catch
        {
            process.Dispose();
            throw;
        }
    }

    /// <summary>Starts a handler expected to fail at start-up; returns its exit code and everything it printed.</summary>
    public static async Task<(int ExitCode, string Output)> RunToFailureAsync(Dictionary<string, string?> settings)
    {
        using var process = Launch(settings);
        var exitCode = await process.WaitForExitAsync(TimeSpan.FromSeconds(60));
        return (exitCode, process.Output);
    }

    public void Dispose()
    {
        Http.Dispose();
        _process.Dispose();
    }

    private static ChildProcess Launch(Dictionary<string, string?> settings) =>
        ChildProcess.Start(new ChildProcessOptions
        {
            Name = "handler",
            FileName = "dotnet",
            Arguments = [RepoLayout.Current.RequireBuilt("SensorPipeline.Functions", "SensorPipeline.Functions.dll")],
            Environment = settings.AsReadOnly(),
            WorkingDirectory = RepoLayout.Current.Root,
        });

    [GeneratedRegex(@"SensorPipeline\.Functions listening on (?<url>http://127\.0\.0\.1:\d+)")]
    private static partial Regex Announce();
}
