using SensorPipeline.Clients;

namespace SensorPipeline.EventHubs.Tests;

/// <summary>The real devhost program (the toolkit's <see cref="DevHostProcess"/>, on a free loopback port) with an HTTP
/// client on its address; killed on dispose.</summary>
internal sealed class RunningDevHost : IAsyncDisposable
{
    private static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(60);
    private readonly DevHostProcess _devHost;

    private RunningDevHost(DevHostProcess devHost)
    {
        _devHost = devHost;
        Client = new HttpClient { BaseAddress = devHost.BaseAddress, Timeout = TimeSpan.FromSeconds(30) };

        // The tests act as the developer's tools: they may peek and flip admin switches.
        Client.DefaultRequestHeaders.Add("X-DevHost-Admin", "1");
    }

    public Uri BaseAddress => _devHost.BaseAddress;

    public HttpClient Client { get; }

    public static async Task<RunningDevHost> StartAsync(string appRoot, string dataDirectory, string hubsFile, params string[] settings) =>
        new(await DevHostProcess.StartAsync(new DevHostStart
        {
            AppRoot = appRoot, DataDirectory = dataDirectory, HubsFile = hubsFile, Settings = settings, StartTimeout = StartTimeout,
        }));

    /// <summary>Runs devhost with <paramref name="args"/> until it exits (for start-up failures and the status command).</summary>
    public static async Task<(int ExitCode, string Output, string Errors)> RunToExitAsync(params string[] args)
    {
        await using var devHost = await DevHostProcess.RunAsync(args, StartTimeout);
        return (devHost.ExitCode, devHost.StandardOutput, devHost.StandardError);
    }

    /// <summary>kill -9: no shutdown code runs, nothing is flushed by the process.</summary>
    public Task KillHardAsync() => _devHost.Process.KillAsync();

    public async ValueTask DisposeAsync()
    {
        Client.Dispose();
        await _devHost.DisposeAsync();
    }
}

/// <summary>SAS tokens as a sender builds them, by the one builder (pinned to independently computed vectors in
/// <see cref="SharedAccessSignatureTests"/>).</summary>
internal static class Sas
{
    public const string Key = EventHubsEmulatorAccount.Key;
    public const string KeyName = EventHubsEmulatorAccount.KeyName;

    public static string Token(string resourceUri, string key = Key, string keyName = KeyName, long? expiry = null)
        => SharedAccessSignature.Create(resourceUri, keyName, key, expiry is { } se ? DateTimeOffset.FromUnixTimeSeconds(se) : DateTimeOffset.UtcNow.AddHours(1));

    public static string Namespace => Token("sb://emulatorns1.servicebus.windows.net/");
}
