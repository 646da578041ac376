using System.Net.Http.Json;
using SensorPipeline.Clients;

namespace SensorPipeline.Stack;

/// <summary>The faults a chaos run injects into the running stack, each through the component's own seam.</summary>
public sealed partial class LocalPipeline
{
    private int _restarts;

    /// <summary>kill -9 of devhost alone (its handler is orphaned, as after a crash; the next devhost finds it by its pid
    /// file and stops it), then devhost again on the same data directory and port.</summary>
    public async Task CrashAndRestartDevHostAsync(CancellationToken cancellationToken)
    {
        var devHost = _devHost ?? throw new InvalidOperationException("devhost is not running");
        await devHost.Process.KillAsync(entireProcessTree: false);
        await devHost.DisposeAsync();
        await StartDevHostAsync(Path.Combine(Options.DataDirectory, "logs"), cancellationToken, NextLogName("devhost"));
    }

    /// <summary>kill -9 of the custom handler; devhost notices and starts it again (its restart policy is under test).</summary>
    /// <returns>The killed handler's process id.</returns>
    public async Task<int> KillHandlerAsync(CancellationToken cancellationToken)
    {
        var status = await GetFunctionsStatusAsync(cancellationToken);
        var pid = status.HandlerPid ?? throw new InvalidOperationException("devhost reports no running handler");
        using var handler = System.Diagnostics.Process.GetProcessById(pid);
        handler.Kill();
        await handler.WaitForExitAsync(cancellationToken);
        return pid;
    }

    /// <summary>kill -9 of the Cosmos DB emulator, then the emulator again on the same data directory and port (so the
    /// handler's endpoint stays valid): every write it acknowledged must still be there.</summary>
    public async Task CrashAndRestartCosmosAsync(CancellationToken cancellationToken)
    {
        var port = _cosmos.Endpoint.Port;
        await _cosmos.Process.KillAsync();
        await _cosmos.DisposeAsync();
        var logs = Path.Combine(Options.DataDirectory, "logs");
        _cosmos = await CosmosEmulatorProcess.StartAsync(_cosmos.DataDirectory, Layout, Path.Combine(logs, NextLogName("cosmos")), Options.Echo,
            port, cancellationToken: cancellationToken);
    }

    /// <summary>kill -9 of azurite (the app's AzureWebJobsStorage), then azurite again on the same data directory and
    /// port: the processors' ownership renewals and checkpoints fail meanwhile and resume, nothing lost.</summary>
    public async Task CrashAndRestartAzuriteAsync(CancellationToken cancellationToken)
    {
        var port = _azurite.BlobEndpoint.Port;
        await _azurite.Process.KillAsync();
        await _azurite.DisposeAsync();
        var logs = Path.Combine(Options.DataDirectory, "logs");
        _azurite = await AzuriteProcess.StartAsync(_azurite.DataDirectory, Layout, port, Path.Combine(logs, NextLogName("azurite")), StorageRequestLog,
            cancellationToken: cancellationToken);
    }

    /// <summary>Asks the Cosmos DB emulator to answer with a fault (<c>POST /_emulator/faults</c>) for a while.</summary>
    public async Task InjectStoreFaultAsync(InjectedStoreFault fault, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(fault);
        using var request = new HttpRequestMessage(HttpMethod.Post, new Uri(CosmosEndpoint, "_emulator/faults")) { Content = JsonContent.Create(fault, options: Json) };
        request.Headers.Add(CosmosEmulatorAccount.AdminHeader, "1");
        using var response = await CosmosAdmin.SendAsync(request, cancellationToken);
        response.EnsureSuccessStatusCode();
    }

    /// <summary>Turns the event log's simulated full disk on or off (devhost's storage fault seam, never the real disk).</summary>
    public async Task SetEventLogDiskFullAsync(bool full, CancellationToken cancellationToken)
    {
        using var request = new HttpRequestMessage(full ? HttpMethod.Put : HttpMethod.Delete, new Uri(DevHostUrl, "admin/eventhubs/disk-full"));
        request.Headers.Add("X-DevHost-Admin", "1");
        using var response = await _http.SendAsync(request, cancellationToken);
        response.EnsureSuccessStatusCode();
    }

    /// <summary>Turns the Cosmos DB emulator's simulated full disk on or off (<c>PUT|DELETE /_emulator/disk-full</c>: its
    /// log's storage fault seam, never the real disk).</summary>
    public async Task SetStoreDiskFullAsync(bool full, CancellationToken cancellationToken)
    {
        using var request = new HttpRequestMessage(full ? HttpMethod.Put : HttpMethod.Delete, new Uri(CosmosEndpoint, "_emulator/disk-full"));
        request.Headers.Add(CosmosEmulatorAccount.AdminHeader, "1");
        using var response = await CosmosAdmin.SendAsync(request, cancellationToken);
        response.EnsureSuccessStatusCode();
    }

    private string NextLogName(string name) =>
        string.Create(CultureInfo.InvariantCulture, $"{name}-restart-{Interlocked.Increment(ref _restarts)}.log");

    private static readonly HttpClient CosmosAdmin = new(CosmosClients.LoopbackEmulatorHandler()) { Timeout = TimeSpan.FromSeconds(30) };
}

/// <summary>A fault the Cosmos DB emulator answers with (its <c>/_emulator/faults</c> body).</summary>
/// <param name="Status">HTTP status to answer, e.g. 429, 503, 403.</param>
/// <param name="Seconds">How long.</param>
/// <param name="WritesOnly">Only writes fail (reads still answer).</param>
/// <param name="Probability">Share of requests that fail, 0..1.</param>
/// <param name="RetryAfterMs">The <c>x-ms-retry-after-ms</c> of a 429.</param>
/// <param name="SubStatus">The <c>x-ms-substatus</c>.</param>
/// <param name="DocumentContains">Only document writes whose document contains this text fail, each on its own (400 and 413 allowed).</param>
/// <param name="Container">Only requests to this container fail (400 and 413 allowed: e.g. 400/1001 on every write).</param>
public sealed record InjectedStoreFault(int Status, double Seconds, bool WritesOnly = false, double Probability = 1, int? RetryAfterMs = null, int? SubStatus = null,
    string? DocumentContains = null, string? Container = null);
