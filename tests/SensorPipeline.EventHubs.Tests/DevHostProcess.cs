using System.Diagnostics;
using System.Globalization;
using System.Security.Cryptography;
using System.Text;

namespace SensorPipeline.EventHubs.Tests;

/// <summary>The real devhost program, started as a child process on a free loopback port (--port 0; the URL is parsed
/// from the line it prints) and killed on dispose.</summary>
internal sealed class DevHostProcess : IAsyncDisposable
{
    private static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(60);
    private readonly Process _process;
    private readonly StringBuilder _errors = new();

    private DevHostProcess(Process process, Uri baseAddress)
    {
        _process = process;
        BaseAddress = baseAddress;
        Client = new HttpClient { BaseAddress = baseAddress, Timeout = TimeSpan.FromSeconds(30) };

        // The tests act as the developer's tools: they may peek and flip admin switches.
        Client.DefaultRequestHeaders.Add("X-DevHost-Admin", "1");
    }

    public Uri BaseAddress { get; }

    public HttpClient Client { get; }

    public static string DllPath
    {
        get
        {
            // artifacts/bin/<test project>/<config>/ → artifacts/bin/SensorPipeline.DevHost/<config>/
            var testDir = new DirectoryInfo(AppContext.BaseDirectory.TrimEnd(Path.DirectorySeparatorChar));
            var path = Path.Combine(testDir.Parent!.Parent!.FullName, "SensorPipeline.DevHost", testDir.Name, "SensorPipeline.DevHost.dll");
            return File.Exists(path) ? path : throw new FileNotFoundException("Build devhost first (the test project references it).", path);
        }
    }

    public static async Task<DevHostProcess> StartAsync(string appRoot, string dataDirectory, string hubsFile, params string[] settings)
    {
        var args = new List<string> { "--app-root", appRoot, "--data", dataDirectory, "--port", "0", "--hubs", hubsFile };
        foreach (var setting in settings)
        {
            args.AddRange(["--set", setting]);
        }

        var process = Create(args);
        var listening = new TaskCompletionSource<Uri>(TaskCreationOptions.RunContinuationsAsynchronously);
        var errors = new StringBuilder();
        process.OutputDataReceived += (_, e) =>
        {
            if (e.Data is { } line && line.StartsWith("devhost listening on ", StringComparison.Ordinal))
            {
                listening.TrySetResult(new Uri(line["devhost listening on ".Length..]));
            }
        };
        process.ErrorDataReceived += (_, e) =>
        {
            lock (errors)
            {
                errors.AppendLine(e.Data);
            }
        };
        process.EnableRaisingEvents = true;
        process.Exited += (_, _) => listening.TrySetException(new InvalidOperationException($"devhost exited with {process.ExitCode} before listening: {errors}"));
        process.Start();
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        try
        {
            var uri = await listening.Task.WaitAsync(StartTimeout);
            return new DevHostProcess(process, uri);
        }
        catch
        {
            Stop(process);
            process.Dispose();
            throw;
        }
    }

    /// <summary>Runs devhost with <paramref name="args"/> until it exits (for start-up failures and the status command).</summary>
    public static async Task<(int ExitCode, string Output, string Errors)> RunToExitAsync(params string[] args)
    {
        using var process = Create(args);
        process.Start();
        var output = process.StandardOutput.ReadToEndAsync();
        var errors = process.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(StartTimeout);
        try
        {
            await process.WaitForExitAsync(timeout.Token);
        }
        catch (OperationCanceledException)
        {
            Stop(process);
            throw new TimeoutException($"devhost {string.Join(' ', args)} did not exit within {StartTimeout}.");
        }

        return (process.ExitCode, await output, await errors);
    }

    /// <summary>kill -9: no shutdown code runs, nothing is flushed by the process.</summary>
    public void KillHard() => _process.Kill(entireProcessTree: true);

    public async ValueTask DisposeAsync()
    {
        Client.Dispose();
        Stop(_process);
        await _process.WaitForExitAsync();
        _process.Dispose();
    }

    private static Process Create(IEnumerable<string> args)
    {
        var start = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        start.ArgumentList.Add(DllPath);
        foreach (var arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        start.Environment["DOTNET_NOLOGO"] = "1";
        return new Process { StartInfo = start };
    }

    private static void Stop(Process process)
    {
        if (!process.HasExited)
        {
            process.Kill(entireProcessTree: true);
        }
    }
}

/// <summary>SAS tokens built independently of the emulator's own code, as an Event Hubs client builds them.</summary>
internal static class Sas
{
    public const string Key = "SAS_KEY_VALUE";
    public const string KeyName = "RootManageSharedAccessKey";

    public static string Token(string resourceUri, string key = Key, string keyName = KeyName, long? expiry = null)
    {
        var encoded = Uri.EscapeDataString(resourceUri);
        var se = (expiry ?? DateTimeOffset.UtcNow.AddHours(1).ToUnixTimeSeconds()).ToString(CultureInfo.InvariantCulture);
        using var hmac = new HMACSHA256(Encoding.UTF8.GetBytes(key));
        var sig = Convert.ToBase64String(hmac.ComputeHash(Encoding.UTF8.GetBytes(encoded + "\n" + se)));
        return $"SharedAccessSignature sr={encoded}&sig={Uri.EscapeDataString(sig)}&se={se}&skn={keyName}";
    }

    public static string Namespace => Token("sb://emulatorns1.servicebus.windows.net/");
}
