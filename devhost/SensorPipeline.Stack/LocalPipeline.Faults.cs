namespace SensorPipeline.Stack;

/// <summary>The process faults a chaos run injects into the running stack: kills and restarts (the admin seams are
/// <see cref="StoreFaultSeams"/>).</summary>
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

    private string NextLogName(string name) =>
        string.Create(CultureInfo.InvariantCulture, $"{name}-restart-{Interlocked.Increment(ref _restarts)}.log");
}
