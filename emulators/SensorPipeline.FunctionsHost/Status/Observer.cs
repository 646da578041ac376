using Microsoft.Extensions.Logging;
using SensorPipeline.FunctionsHost.Processing;

namespace SensorPipeline.FunctionsHost.Status;

/// <summary>The status side of a host that runs no processors (<see cref="FunctionsHostOptions.ObserveOnly"/>): every
/// ObserveInterval it re-reads each consumer group's checkpoint and ownership blobs that the instance processes write,
/// so <c>/status/functions</c> shows their lag, owners and ownership changes, and samples them into the bounded
/// ownership history the dashboard draws.</summary>
internal sealed class Observer(FunctionsHostState state, BlobObservation blobs, FunctionsHostOptions options, ILogger logger)
{
    public async Task RunAsync(CancellationToken cancellationToken)
    {
        state.StartHistory(options.ObserveInterval);
        try
        {
            while (!cancellationToken.IsCancellationRequested)
            {
                try
                {
                    await RefreshAsync(cancellationToken);
                }
                catch (Exception ex) when (ex is not OperationCanceledException)
                {
                    // Storage unreachable for a moment (azurite restarting): read again at the next interval; status
                    // shows the last good view.
                    FunctionsHostLog.ObserveFailed(logger, ex);
                }

                await Task.Delay(options.ObserveInterval, cancellationToken);
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // Shutdown.
        }
    }

    public async Task RefreshAsync(CancellationToken cancellationToken)
    {
        foreach (var function in state.Functions)
        {
            await blobs.RefreshAsync(function, cancellationToken);
        }

        state.RecordOwnership();
    }
}
