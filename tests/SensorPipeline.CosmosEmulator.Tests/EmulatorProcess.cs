using System.Diagnostics;
using System.Net;
using System.Text;
using Microsoft.Azure.Cosmos;
using SensorPipeline.Clients;

namespace SensorPipeline.CosmosEmulator.Tests;

/// <summary>The real emulator program, started as a child process on a free loopback port (--port 0; the URL is parsed
/// from its readiness line) over a data directory that outlives it, and killed on dispose.</summary>
internal sealed class EmulatorProcess : IAsyncDisposable
{
    public const string Key = SensorPipeline.Clients.CosmosEmulatorAccount.Key;
    private static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(60);
    private readonly Process _process;
    private readonly StringBuilder _errors;

    private EmulatorProcess(Process process, Uri endpoint, string dataDirectory, StringBuilder errors)
    {
        (_process, Endpoint, DataDirectory, _errors) = (process, endpoint, dataDirectory, errors);
    }

    public Uri Endpoint { get; }

    public string DataDirectory { get; }

    public int ProcessId => _process.Id;

    public string Errors
    {
        get
        {
            lock (_errors)
            {
                return _errors.ToString();
            }
        }
    }

    public static string DllPath
    {
        get
        {
            // artifacts/bin/<test project>/<config>/ → artifacts/bin/SensorPipeline.CosmosEmulator/<config>/
            var testDir = new DirectoryInfo(AppContext.BaseDirectory.TrimEnd(Path.DirectorySeparatorChar));
            var path = Path.Combine(testDir.Parent!.Parent!.FullName, "SensorPipeline.CosmosEmulator", testDir.Name, "SensorPipeline.CosmosEmulator.dll");
            return File.Exists(path) ? path : throw new FileNotFoundException("Build the emulator first (the test project references it).", path);
        }
    }

    public static Task<EmulatorProcess> StartAsync(params string[] settings) => StartAsync(NewDataDirectory(), settings);

    public static string NewDataDirectory() => Path.Combine(Path.GetTempPath(), "cosmos-emulator-tests", Guid.NewGuid().ToString("N"));

    public static async Task<EmulatorProcess> StartAsync(string dataDirectory, params string[] settings)
    {
        var start = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var arg in (string[])[DllPath, "--data", dataDirectory, "--port", "0"])
        {
            start.ArgumentList.Add(arg);
        }

        foreach (var setting in settings)
        {
            start.ArgumentList.Add("--set");
            start.ArgumentList.Add(setting);
        }

        start.Environment["DOTNET_NOLOGO"] = "1";
        var process = new Process { StartInfo = start, EnableRaisingEvents = true };
        var listening = new TaskCompletionSource<Uri>(TaskCreationOptions.RunContinuationsAsynchronously);
        var errors = new StringBuilder();
        process.OutputDataReceived += (_, e) =>
        {
            const string Prefix = "cosmos emulator listening on ";
            if (e.Data is { } line && line.StartsWith(Prefix, StringComparison.Ordinal))
            {
                listening.TrySetResult(new Uri(line[Prefix.Length..]));
            }
        };
        process.ErrorDataReceived += (_, e) =>
        {
            lock (errors)
            {
                errors.AppendLine(e.Data);
            }
        };
        process.Exited += (_, _) => listening.TrySetException(new InvalidOperationException($"the emulator exited with {process.ExitCode} before listening: {errors}"));
        process.Start();
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        try
        {
            return new EmulatorProcess(process, await listening.Task.WaitAsync(StartTimeout), dataDirectory, errors);
        }
        catch
        {
            process.Kill(entireProcessTree: true);
            process.Dispose();
            throw;
        }
    }

    /// <summary>A client as an application configures one for the emulator: Gateway mode, this endpoint only, and
    /// the self-signed certificate accepted because the endpoint is loopback.</summary>
    public CosmosClient CreateClient(string key = Key, bool bulk = false, int rateLimitRetries = 9) => new(Endpoint.ToString(), key, new CosmosClientOptions
    {
        ConnectionMode = ConnectionMode.Gateway,
        LimitToEndpoint = true,
        AllowBulkExecution = bulk,
        MaxRetryAttemptsOnRateLimitedRequests = rateLimitRetries,
        HttpClientFactory = () => new HttpClient(new HttpClientHandler
        {
            ServerCertificateCustomValidationCallback = (request, _, _, _) => request.RequestUri is { } uri && IPAddress.TryParse(uri.Host, out var ip) && IPAddress.IsLoopback(ip),
        }),
    });

    /// <summary>kill -9: no shutdown code runs.</summary>
    public async Task KillHardAsync()
    {
        _process.Kill(entireProcessTree: true);
        await _process.WaitForExitAsync();
    }

    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
        }

        await _process.WaitForExitAsync();
        _process.Dispose();
    }
}
