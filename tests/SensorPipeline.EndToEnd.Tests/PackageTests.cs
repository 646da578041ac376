using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Text.Json;
using SensorPipeline.Stack;

namespace SensorPipeline.EndToEnd.Tests;

/// <summary>
/// <c>./pipeline package</c> builds exactly the folder Azure Functions deploys: host.json, one folder per function,
/// and the self-contained handler where host.json says — and that handler starts and listens on
/// FUNCTIONS_CUSTOMHANDLER_PORT as the Functions host requires.
/// </summary>
[Collection(OneAtATime.Name)]
public sealed class PackageTests : IDisposable
{
    private readonly string _out = Path.Combine(Path.GetTempPath(), "sensorpipeline-package-" + Guid.NewGuid().ToString("N"));

    [Fact]
    public async Task Package_HasTheFunctionsLayoutAndAHandlerThatListens()
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(8));
        var layout = RepoLayout.Discover();
        var build = ChildProcessResult.Run("bash", [Path.Combine(layout.Root, "pipeline"), "package", "--out", _out], layout.Root, TimeSpan.FromMinutes(7));
        Assert.True(build.ExitCode == 0, build.Output);

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
        var port = FreePort();
        var start = new ProcessStartInfo(executable) { RedirectStandardOutput = true, RedirectStandardError = true, WorkingDirectory = _out };
        start.Environment["FUNCTIONS_CUSTOMHANDLER_PORT"] = port.ToString(System.Globalization.CultureInfo.InvariantCulture);
        start.Environment["FUNCTIONS_APP_ROOT_PATH"] = _out;
        start.Environment["Cosmos__AccountEndpoint"] = "https://127.0.0.1:9/"; // nothing is written in this test
        start.Environment["Cosmos__AuthKey"] = LocalPipeline.CosmosEmulatorKey;
        using var handler = Process.Start(start)!;
        try
        {
            using var http = new HttpClient();
            HttpResponseMessage? answer = null;
            while (answer is null && !timeout.IsCancellationRequested)
            {
                if (handler.HasExited)
                {
                    // Read the output only once the process is gone: before that, ReadToEnd would wait for it to exit.
                    Assert.Fail($"the handler exited with {handler.ExitCode}: {await handler.StandardError.ReadToEndAsync(timeout.Token)}");
                }

                try
                {
                    answer = await http.GetAsync(new Uri($"http://127.0.0.1:{port}/"), timeout.Token);
                }
                catch (HttpRequestException)
                {
                    await Task.Delay(200, timeout.Token);
                }
            }

            Assert.NotNull(answer); // any HTTP answer is "ready" for the Functions host
            answer.Dispose();
        }
        finally
        {
            handler.Kill(entireProcessTree: true);
            await handler.WaitForExitAsync(CancellationToken.None);
        }
    }

    public void Dispose()
    {
        if (Directory.Exists(_out))
        {
            Directory.Delete(_out, recursive: true);
        }
    }

    private static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}

/// <summary>Runs a command to completion and keeps its combined output for assertion messages.</summary>
internal sealed record ChildProcessResult(int ExitCode, string Output)
{
    public static ChildProcessResult Run(string fileName, IEnumerable<string> arguments, string workingDirectory, TimeSpan timeout)
    {
        var info = new ProcessStartInfo(fileName) { RedirectStandardOutput = true, RedirectStandardError = true, WorkingDirectory = workingDirectory };
        foreach (var argument in arguments)
        {
            info.ArgumentList.Add(argument);
        }

        using var process = Process.Start(info)!;
        var output = new System.Text.StringBuilder();
        process.OutputDataReceived += (_, e) => { lock (output) { output.AppendLine(e.Data); } };
        process.ErrorDataReceived += (_, e) => { lock (output) { output.AppendLine(e.Data); } };
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        if (!process.WaitForExit(timeout))
        {
            process.Kill(entireProcessTree: true);
            return new ChildProcessResult(-1, $"timed out after {timeout}: {output}");
        }

        process.WaitForExit();
        return new ChildProcessResult(process.ExitCode, output.ToString());
    }
}
