using SensorPipeline.Clients;
using SensorPipeline.Emulators.Common;

namespace SensorPipeline.EndToEnd.Tests;

/// <summary>
/// <c>./pipeline package</c> builds exactly the folder Azure Functions deploys: host.json, one folder per function,
/// and the self-contained handler where host.json says — and that handler starts and listens on
/// FUNCTIONS_CUSTOMHANDLER_PORT as the Functions host requires.
/// </summary>
[Collection(StackCollections.Commands)]
public sealed class PackageTests : IDisposable
{
    private readonly string _out = Path.Combine(Path.GetTempPath(), "sensorpipeline-package-" + Guid.NewGuid().ToString("N"));
    private readonly string _logs = Path.Combine(Path.GetTempPath(), "sensorpipeline-package-logs-" + Guid.NewGuid().ToString("N"));

    [Fact]
    public async Task Package_Built_FunctionsLayoutAndAHandlerThatListens()
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(8));
        var layout = RepoLayout.Discover();
        Directory.CreateDirectory(_logs);
        await using (var build = ChildProcess.Start(new ChildProcessOptions
        {
            Name = "package", FileName = "bash", Arguments = [Path.Combine(layout.Root, "pipeline"), "package", "--out", _out],
            LogPath = Path.Combine(_logs, "package.log"), WorkingDirectory = layout.Root,
        }))
        {
            Assert.True(await build.WaitForExitAsync(timeout.Token) == 0, build.Output);
        }

        // Exactly the layout: nothing more at the root (no source, no local settings), nothing less.
        var entries = Directory.EnumerateFileSystemEntries(_out).Select(Path.GetFileName).Order(StringComparer.Ordinal).ToArray();
        Assert.Equal(new[] { "SeismicProcessor", "Splitter", "WeatherProcessor", "handler", "host.json" }, entries);
        foreach (var function in new[] { "Splitter", "WeatherProcessor", "SeismicProcessor" })
        {
            Assert.Equal(new[] { "function.json" }, Directory.EnumerateFileSystemEntries(Path.Combine(_out, function)).Select(Path.GetFileName));
            Assert.Equal(File.ReadAllText(Path.Combine(layout.Root, "functions", function, "function.json")), File.ReadAllText(Path.Combine(_out, function, "function.json")));
        }

        using var host = JsonDocument.Parse(File.ReadAllText(Path.Combine(_out, "host.json")));
        var executable = Path.Combine(_out, host.RootElement.GetProperty("customHandler").GetProperty("description").GetProperty("defaultExecutablePath").GetString()!);
        Assert.True(File.Exists(executable), $"{executable} is missing");
        Assert.True(OperatingSystem.IsLinux() && (File.GetUnixFileMode(executable) & UnixFileMode.UserExecute) != 0, "the handler is not executable");
        Assert.False(File.Exists(Path.Combine(_out, "local.settings.json")), "local settings must never be deployed");

        // Started as the Functions host starts it: the port in the environment, the app root beside it.
        var port = LoopbackPort.GetFree();
        var environment = new Dictionary<string, string?>
        {
            ["FUNCTIONS_CUSTOMHANDLER_PORT"] = port.ToString(CultureInfo.InvariantCulture),
            ["FUNCTIONS_APP_ROOT_PATH"] = _out,
            ["Cosmos__AccountEndpoint"] = "https://127.0.0.1:9/", // nothing is written in this test
            ["Cosmos__AuthKey"] = CosmosEmulatorAccount.Key,
            ["EventHubConnection"] = EventHubsEmulatorAccount.ConnectionString(9), // nothing is sent either
        };
        await using var handler = ChildProcess.Start(new ChildProcessOptions
        {
            Name = "handler", FileName = executable, Environment = environment, LogPath = Path.Combine(_logs, "handler.log"), WorkingDirectory = _out,
        });
        using var http = new HttpClient();
        // Any HTTP answer is "ready" for the Functions host; refused connections mean not yet.
        using var answer = await Eventually.ValueAsync(
            async token =>
            {
                Assert.False(handler.HasExited, $"the handler exited; its output is in {handler.LogPath}");
                try
                {
                    return await http.GetAsync(new Uri($"http://127.0.0.1:{port}/"), token);
                }
                catch (HttpRequestException)
                {
                    return null;
                }
            },
            response => response is not null, "the handler's first HTTP answer", TimeSpan.FromMinutes(2), TimeSpan.FromMilliseconds(200), cancellationToken: timeout.Token);
    }

    public void Dispose()
    {
        foreach (var directory in new[] { _out, _logs })
        {
            if (Directory.Exists(directory))
            {
                Directory.Delete(directory, recursive: true);
            }
        }
    }
}
