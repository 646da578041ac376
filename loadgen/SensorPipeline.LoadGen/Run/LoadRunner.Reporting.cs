using SensorPipeline.LoadGen.Ledger;
using SensorPipeline.LoadGen.Sending;

namespace SensorPipeline.LoadGen.Run;

internal sealed partial class LoadRunner
{
    /// <summary>Prints progress and rewrites the ledger once per interval until stopped.</summary>
    private async Task ReportAsync(Pacer pacer, DateTimeOffset startedAt, CancellationToken cancellationToken)
    {
        using var timer = new PeriodicTimer(_options.ProgressInterval, _time);
        var lastReadings = 0L;
        var lastAt = pacer.Elapsed;
        try
        {
            while (await timer.WaitForNextTickAsync(cancellationToken))
            {
                var now = pacer.Elapsed;
                var readings = _counters.Readings;
                var rate = (readings - lastReadings) / Math.Max((now - lastAt).TotalSeconds, 1e-3);
                (lastReadings, lastAt) = (readings, now);
                _progress.Write(ProgressLine.Format(now, rate, _counters));
                if (_options.Ledger is { } path)
                {
                    // Progress checkpoint: everything below the watermark is resolved, so an interrupted run can
                    // still be verified up to here. Not complete until the final write in RunAsync.
                    var snapshot = _tracker.Snapshot(_sender.Target.ToString(), _options.Seed, startedAt, _time.GetUtcNow(), now, complete: false);
                    await LedgerFile.WriteAsync(path, snapshot, cancellationToken);
                }
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // Stopped by RunAsync after the drain; the final ledger write follows there.
        }
    }
}
