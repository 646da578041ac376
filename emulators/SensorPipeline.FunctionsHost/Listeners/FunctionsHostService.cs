using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using SensorPipeline.FunctionsHost.Config;
using SensorPipeline.FunctionsHost.Handler;
using SensorPipeline.FunctionsHost.Hubs;
using SensorPipeline.FunctionsHost.Invocation;
using SensorPipeline.FunctionsHost.Status;

namespace SensorPipeline.FunctionsHost.Listeners;

/// <summary>Runs the function app: loads and checks its configuration at start-up (a bad file stops devhost), then
/// loops over generations — start the handler, start one SDK event processor per function (ownership and checkpoints
/// in the app's <c>AzureWebJobsStorage</c>), and when the handler dies or a function times out, stop them all and
/// start again from the checkpoints. Several instances (<see cref="FunctionsHostOptions.InstanceId"/>, each its own
/// process) share the partitions through the processors' ownership blobs.</summary>
internal sealed partial class FunctionsHostService(
    IOptions<FunctionsHostOptions> options,
    IEnumerable<IEventHubsGateway> gateways,
    FunctionsHostState state,
    TimeProvider time,
    ILoggerFactory loggers,
    IEnumerable<IEventHubsEndpoint> endpoints) : IHostedService, IAsyncDisposable
{
    private readonly ILogger _logger = loggers.CreateLogger("SensorPipeline.FunctionsHost");
    private readonly CancellationTokenSource _stopping = new();
    private Task _run = Task.CompletedTask;
    private Task _stallMonitor = Task.CompletedTask;
    private Task _observer = Task.CompletedTask;

    // One client for the host's life, as DefaultHttpWorkerService keeps one. Its own timeout is off: functionTimeout
    // is enforced per invocation (the host sets HttpClient.Timeout to functionTimeout + 1 minute as a backstop).
    private readonly HttpClient _http = new(new SocketsHttpHandler
    {
        UseProxy = false,
        AutomaticDecompression = System.Net.DecompressionMethods.None,
        PooledConnectionIdleTimeout = TimeSpan.FromMinutes(2),
    })
    {
        Timeout = Timeout.InfiniteTimeSpan,
    };

    public async Task StartAsync(CancellationToken cancellationToken)
    {
        var settings = options.Value;
        if (!settings.Enabled)
        {
            return;
        }

        if (!File.Exists(Path.Combine(settings.AppRoot, "host.json")))
        {
            // Not a function app (e.g. devhost serving only the emulator): nothing to trigger.
            var appRoot = Path.GetFullPath(settings.AppRoot);
            FunctionsHostLog.NoFunctionApp(_logger, appRoot);
            return;
        }

        var app = WithOverrides(Select(await FunctionAppLoader.LoadAsync(settings.AppRoot, cancellationToken), settings), settings);
        var gateway = (settings.ExternalNamespace ? null : gateways.FirstOrDefault()) ?? await ConnectGatewayAsync(app, settings, cancellationToken);
        _gateway = gateway;
        FunctionAppLoader.ValidateAgainst(app, gateway.Hubs);
        var processing = await OpenStorageAsync(app, cancellationToken);
        _processing = processing;
        state.Initialize(app, processing.Checkpoints, gateway, settings.InstanceId);
        var names = string.Join(", ", app.Functions.Select(f => f.Name));
        FunctionsHostLog.HostStarted(_logger, app.Functions.Count, names, app.AppRoot);
        if (app.Functions.Count == 0)
        {
            return;
        }

        if (settings.ObserveOnly)
        {
            // Instances run in their own processes: this host only reads the blobs they write, for status and the
            // scaler.
            _observer = new Observer(state, Observation(app, settings), settings, _logger).RunAsync(_stopping.Token);
            _stallMonitor = new StallMonitor(state, processing.Checkpoints, gateway, settings, time, _logger).RunAsync(_stopping.Token);
            return;
        }

        if (settings.InstanceId.Length == 0 && await HandlerPidFile.KillOrphanAsync(settings.DataDirectory, cancellationToken) is { } orphan)
        {
            FunctionsHostLog.OrphanKilled(_logger, orphan);
        }

        var first = await StartFirstHandlerAsync(app, settings, cancellationToken);
        _run = RunUntilStoppedAsync(app, settings, _http, first, _stopping.Token);
        _stallMonitor = new StallMonitor(state, processing.Checkpoints, gateway, settings, time, _logger).RunAsync(_stopping.Token);
    }

    /// <summary>The first handler start is part of start-up: a handler that cannot start (wrong path, crashes at once,
    /// never listens) stops devhost with the reason, as the Functions host fails to initialize.</summary>
    private async Task<HandlerProcess> StartFirstHandlerAsync(FunctionApp app, FunctionsHostOptions settings, CancellationToken cancellationToken)
    {
        try
        {
            return await HandlerProcess.StartAsync(app, settings.HandlerStartupTimeout, _http, _logger, 1, cancellationToken);
        }
        catch (TimeoutException ex)
        {
            throw new FunctionAppConfigurationException(Path.Combine(app.AppRoot, "host.json"), "customHandler.description", ex.Message, ex);
        }
    }

    public async Task StopAsync(CancellationToken cancellationToken)
    {
        await _stopping.CancelAsync();
        await _run.WaitAsync(cancellationToken);
        await _stallMonitor.WaitAsync(cancellationToken);
        await _observer.WaitAsync(cancellationToken);
        if (_ownGateway is not null)
        {
            await _ownGateway.DisposeAsync();
        }
    }

    public async ValueTask DisposeAsync()
    {
        await _stopping.CancelAsync();
        _stopping.Dispose();
        _http.Dispose();
    }

    private async Task RunUntilStoppedAsync(FunctionApp app, FunctionsHostOptions settings, HttpClient http, HandlerProcess firstHandler, CancellationToken stopping)
    {
        try
        {
            await RunAsync(app, settings, http, firstHandler, stopping);
        }
        catch (OperationCanceledException) when (stopping.IsCancellationRequested)
        {
            // Shutdown while starting a handler or between generations: nothing is in flight, nothing to checkpoint.
        }
    }

    private async Task RunAsync(FunctionApp app, FunctionsHostOptions settings, HttpClient http, HandlerProcess firstHandler, CancellationToken stopping)
    {
        var client = new HandlerClient(http, settings.HostVersion);
        if (!settings.ExternalNamespace && endpoints.FirstOrDefault() is { } endpoint)
        {
            _endpoint = await endpoint.GetAsync(stopping);
        }

        var attempt = 1;
        var started = firstHandler;
        while (!stopping.IsCancellationRequested)
        {
            HandlerProcess handler;
            try
            {
                handler = started ?? await HandlerProcess.StartAsync(app, settings.HandlerStartupTimeout, http, _logger, ++attempt, stopping);
                started = null;
            }
            catch (Exception ex) when ((ex is TimeoutException or InvalidOperationException or FunctionAppConfigurationException) && !stopping.IsCancellationRequested)
            {
                FunctionsHostLog.HandlerStartFailed(_logger, ex, settings.HandlerRestartDelay);
                await DelayQuietlyAsync(settings.HandlerRestartDelay, stopping);
                continue;
            }
            catch (OperationCanceledException) when (stopping.IsCancellationRequested)
            {
                return;
            }

            await using (handler)
            {
                state.SetHandler(handler.Pid, handler.Port, attempt);
                if (settings.InstanceId.Length == 0)
                {
                    // Several instances share the data directory, and each one's handler dies with it (its own child).
                    await HandlerPidFile.WriteAsync(settings.DataDirectory, handler.Pid, stopping);
                }
                if (await RunGenerationAsync(app, settings, client, handler, stopping))
                {
                    await DelayQuietlyAsync(settings.HandlerRestartDelay, stopping);
                }
            }
        }
    }

    /// <summary>Runs one generation; returns true when it ended because an invocation path failed unexpectedly.</summary>
    private async Task<bool> RunGenerationAsync(FunctionApp app, FunctionsHostOptions settings, HandlerClient client, HandlerProcess handler, CancellationToken stopping)
    {
        using var restart = CancellationTokenSource.CreateLinkedTokenSource(stopping);
        var generation = new Generation(handler.Port, handler.Exited, restart, stopping);
        var all = Task.WhenAll(StartProcessors(app, settings, client, generation));
        var ended = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using (generation.Token.Register(() => ended.TrySetResult()))
        {
            var first = await Task.WhenAny(handler.Exited, ended.Task);
            if (first == handler.Exited && !stopping.IsCancellationRequested)
            {
                FunctionsHostLog.HandlerExited(_logger, handler.Pid, handler.Exited.Result);
            }
        }

        await restart.CancelAsync();
        await all;
        return generation.ProcessorFailed;
    }

    private static async Task DelayQuietlyAsync(TimeSpan delay, CancellationToken cancellationToken)
    {
        try
        {
            await Task.Delay(delay, cancellationToken);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // Shutdown during the back-off: the loop condition ends the host.
        }
    }
}
