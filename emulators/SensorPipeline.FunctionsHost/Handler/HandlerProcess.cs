using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Sockets;
using Microsoft.Extensions.Logging;
using SensorPipeline.Emulators.Common;
using SensorPipeline.FunctionsHost.Config;

namespace SensorPipeline.FunctionsHost.Handler;

/// <summary>One run of the custom handler process, started as HttpWorkerProcess starts it: the description's
/// executable and arguments in its working directory, with FUNCTIONS_CUSTOMHANDLER_PORT (a free loopback port),
/// FUNCTIONS_CUSTOMHANDLER_WORKER_ID, FUNCTIONS_HTTPWORKER_PORT / _ID, FUNCTIONS_APP_ROOT_PATH, and the app settings
/// (local.settings.json Values) in its environment. Ready when GET http://127.0.0.1:{port}/ gets any HTTP answer
/// (DefaultHttpWorkerService.IsWorkerReady, polled every 25 ms).</summary>
internal sealed class HandlerProcess : IAsyncDisposable
{
    private readonly Process _process;
    private readonly TaskCompletionSource<int> _exited = new(TaskCreationOptions.RunContinuationsAsynchronously);

    private HandlerProcess(Process process, int port)
    {
        _process = process;
        Port = port;
    }

    public int Port { get; }

    public int Pid => _process.Id;

    /// <summary>Completes with the exit code when the process ends, whoever ended it.</summary>
    public Task<int> Exited => _exited.Task;

    public static async Task<HandlerProcess> StartAsync(FunctionApp app, TimeSpan readyTimeout, HttpClient http, ILogger logger, int attempt, CancellationToken cancellationToken)
    {
        var port = LoopbackPort.GetFree();
        var description = app.Host.Handler;
        var start = StartInfo(app, port);
        var commandLine = string.Join(' ', description.Arguments);
        FunctionsHostLog.HandlerStarting(logger, description.ExecutablePath, commandLine, port, attempt);
        var process = new Process { StartInfo = start, EnableRaisingEvents = true };
        var handler = new HandlerProcess(process, port);
        process.OutputDataReceived += (_, e) => Forward(logger, "stdout", e.Data);
        process.ErrorDataReceived += (_, e) => Forward(logger, "stderr", e.Data);
        process.Exited += (_, _) => handler._exited.TrySetResult(SafeExitCode(process));
        try
        {
            process.Start();
        }
        catch (System.ComponentModel.Win32Exception ex)
        {
            process.Dispose();
            throw new FunctionAppConfigurationException(Path.Combine(app.AppRoot, "host.json"), "customHandler.description.defaultExecutablePath",
                $"cannot start '{description.ExecutablePath}' in '{description.WorkingDirectory}': {ex.Message}");
        }

        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        try
        {
            await handler.WaitUntilListeningAsync(readyTimeout, http, logger, cancellationToken);
        }
        catch
        {
            await handler.DisposeAsync();
            throw;
        }

        return handler;
    }

    /// <summary>The handler's command line and environment as HttpWorkerProcess sets them.</summary>
    private static ProcessStartInfo StartInfo(FunctionApp app, int port)
    {
        var description = app.Host.Handler;
        var start = new ProcessStartInfo(description.ExecutablePath)
        {
            WorkingDirectory = description.WorkingDirectory,
            UseShellExecute = false,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            RedirectStandardInput = false,
        };
        foreach (var argument in description.Arguments)
        {
            start.ArgumentList.Add(argument);
        }

        // Values become app settings unless the environment already sets them: Core Tools' precedence.
        foreach ((var key, var value) in app.Values)
        {
            start.Environment.TryAdd(key, value);
        }

        var workerId = Guid.NewGuid().ToString();
        var portText = port.ToString(CultureInfo.InvariantCulture);
        start.Environment["FUNCTIONS_CUSTOMHANDLER_PORT"] = portText;
        start.Environment["FUNCTIONS_CUSTOMHANDLER_WORKER_ID"] = workerId;
        start.Environment["FUNCTIONS_HTTPWORKER_PORT"] = portText;
        start.Environment["FUNCTIONS_HTTPWORKER_ID"] = workerId;
        start.Environment["FUNCTIONS_APP_ROOT_PATH"] = app.AppRoot;
        if (!start.Environment.ContainsKey("FUNCTIONS_WORKER_RUNTIME"))
        {
            start.Environment["FUNCTIONS_WORKER_RUNTIME"] = "custom";
        }

        return start;
    }

    private async Task WaitUntilListeningAsync(TimeSpan timeout, HttpClient http, ILogger logger, CancellationToken cancellationToken)
    {
        var stopwatch = Stopwatch.StartNew();
        var uri = new Uri($"http://127.0.0.1:{Port.ToString(CultureInfo.InvariantCulture)}/");
        while (true)
        {
            cancellationToken.ThrowIfCancellationRequested();
            if (_exited.Task.IsCompleted)
            {
                throw new InvalidOperationException($"the custom handler exited with code {_exited.Task.Result} before listening on port {Port}");
            }

            try
            {
                using var request = new HttpRequestMessage(HttpMethod.Get, uri);
                using var response = await http.SendAsync(request, cancellationToken);

                // Any HTTP answer, even 404, means the server is up.
                FunctionsHostLog.HandlerReady(logger, Pid, Port, stopwatch.ElapsedMilliseconds);
                return;
            }
            catch (HttpRequestException ex) when (ex.InnerException is SocketException)
            {
                if (stopwatch.Elapsed > timeout)
                {
                    throw new TimeoutException($"Initializing the custom handler timed out: nothing listened on {uri} within {timeout}", ex);
                }
            }

            await Task.Delay(25, cancellationToken);
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (!_exited.Task.IsCompleted)
        {
            try
            {
                _process.Kill(entireProcessTree: true);
            }
            catch (InvalidOperationException)
            {
                // Already exited between the check and the kill: nothing left to stop.
            }

            await _exited.Task.WaitAsync(TimeSpan.FromSeconds(10));
        }

        _process.Dispose();
    }

    private static void Forward(ILogger logger, string stream, string? line)
    {
        if (line is not null)
        {
            FunctionsHostLog.HandlerOutput(logger, stream, line);
        }
    }

    private static int SafeExitCode(Process process)
    {
        try
        {
            return process.ExitCode;
        }
        catch (InvalidOperationException)
        {
            return -1;
        }
    }
}
