using SensorPipeline.Stack.Chaos;

namespace SensorPipeline.EndToEnd.Tests;

/// <summary>The chaos run's outside watch on devhost's progress (pure: the status source is a delegate, no stack).</summary>
[Trait("Category", "Fast")]
public sealed class ProgressWatchTests
{
    private static FunctionsStatus Status(long checkpoint, long lag) => new(1, 1,
        [new FunctionStatusView("Splitter", "ingestion", "splitter", false, 1, 0, 2, [new PartitionStatusView("0", checkpoint, checkpoint + lag, lag)])]);

    [Fact]
    public async Task Dispose_WhileAStatusRequestIsInFlight_StopsWithoutThrowing()
    {
        var polls = 0;
        var hanging = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var watch = new ProgressWatch(async cancellationToken =>
        {
            if (Interlocked.Increment(ref polls) == 1)
            {
                return Status(10, 3);
            }

            // The second poll hangs as a request to a busy devhost does, until the watch is stopped: it awaits an answer
            // that never comes, given up when its token is cancelled.
            hanging.TrySetResult();
            await new TaskCompletionSource().Task.WaitAsync(cancellationToken);
            throw new InvalidOperationException("unreachable");
        }, keepHistory: true);

        await hanging.Task.WaitAsync(TimeSpan.FromSeconds(30));
        Assert.Equal(2, watch.RetriedInvocations);
        Assert.Equal(3, Assert.Single(watch.History).Lag);

        // The request in flight is cancelled by the dispose: that is stopping, not a failure to report.
        await watch.DisposeAsync().AsTask().WaitAsync(TimeSpan.FromSeconds(30));
    }

    [Fact]
    public async Task AFailedPoll_IsNotFatal_TheNextOneIsObserved()
    {
        var polls = 0;
        var observed = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var watch = new ProgressWatch(cancellationToken =>
        {
            var poll = Interlocked.Increment(ref polls);
            if (poll == 1)
            {
                // devhost killed or restarting: the watch keeps going.
                throw new HttpRequestException("connection refused");
            }

            observed.TrySetResult();
            return Task.FromResult(Status(20, 0));
        }, keepHistory: true);

        await observed.Task.WaitAsync(TimeSpan.FromSeconds(30));
        await Eventually.UntilAsync(() => watch.History.Count > 0, "the observed poll in the history");
        Assert.Equal(0, watch.History[0].Lag);
    }
}
