using System.Diagnostics;

namespace SensorPipeline.Toolkit;

/// <summary>
/// Waits for a condition that another process or thread makes true: it reads, checks, and reads again after a short
/// pause until the check holds or the time is up, then fails naming what it waited for and the last value it read.
/// The one place the tests, the stack and the benches poll; a wait that has a signal to await awaits the signal instead.
/// </summary>
public static class Eventually
{
    /// <summary>How long a wait lasts unless the caller says otherwise: 30 s, generous for a loaded 2-core machine.</summary>
    public static readonly TimeSpan DefaultTimeout = TimeSpan.FromSeconds(30);

    /// <summary>The pause between two reads unless the caller says otherwise: 50 ms.</summary>
    public static readonly TimeSpan DefaultPoll = TimeSpan.FromMilliseconds(50);

    /// <summary>Reads until <paramref name="done"/> holds for what was read, and returns that value.</summary>
    /// <param name="read">Reads the current state; its token is cancelled when the wait times out.</param>
    /// <param name="done">Whether the state is the one waited for.</param>
    /// <param name="what">What is waited for, for the failure message ("checkpoint 2 on partition 0").</param>
    /// <param name="timeout">How long to wait; <see cref="DefaultTimeout"/> when null.</param>
    /// <param name="poll">The pause between reads; <see cref="DefaultPoll"/> when null.</param>
    /// <param name="context">More text for the failure message, read only on failure (a process's output).</param>
    /// <param name="cancellationToken">Ends the wait early, without a timeout failure.</param>
    /// <exception cref="TimeoutException">The time was up first.</exception>
    public static async Task<T> ValueAsync<T>(Func<CancellationToken, Task<T>> read, Func<T, bool> done, string what,
        TimeSpan? timeout = null, TimeSpan? poll = null, Func<string>? context = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(read);
        ArgumentNullException.ThrowIfNull(done);
        var limit = timeout ?? DefaultTimeout;
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        deadline.CancelAfter(limit);
        var stopwatch = Stopwatch.StartNew();
        var reads = 0;
        T last = default!;
        try
        {
            while (true)
            {
                last = await read(deadline.Token).ConfigureAwait(false);
                reads++;
                if (done(last))
                {
                    return last;
                }

                await Task.Delay(poll ?? DefaultPoll, deadline.Token).ConfigureAwait(false);
            }
        }
        catch (OperationCanceledException) when (deadline.IsCancellationRequested && !cancellationToken.IsCancellationRequested)
        {
            // The time is up: fail below with what was seen.
        }

        var seen = reads == 0 ? "nothing read" : $"last read: {Describe(last)}";
        throw new TimeoutException($"timed out after {stopwatch.Elapsed.TotalSeconds:0.0} s waiting for {what} ({reads} reads, {seen})"
            + (context is null ? "" : "\n" + context()));
    }

    /// <summary>Reads until <paramref name="done"/> holds for what was read, and returns that value.</summary>
    public static Task<T> ValueAsync<T>(Func<Task<T>> read, Func<T, bool> done, string what,
        TimeSpan? timeout = null, TimeSpan? poll = null, Func<string>? context = null, CancellationToken cancellationToken = default) =>
        ValueAsync(_ => read(), done, what, timeout, poll, context, cancellationToken);

    /// <summary>Checks until <paramref name="condition"/> holds.</summary>
    public static Task UntilAsync(Func<CancellationToken, Task<bool>> condition, string what,
        TimeSpan? timeout = null, TimeSpan? poll = null, Func<string>? context = null, CancellationToken cancellationToken = default) =>
        ValueAsync(condition, holds => holds, what, timeout, poll, context, cancellationToken);

    /// <summary>Checks until <paramref name="condition"/> holds.</summary>
    public static Task UntilAsync(Func<Task<bool>> condition, string what,
        TimeSpan? timeout = null, TimeSpan? poll = null, Func<string>? context = null, CancellationToken cancellationToken = default) =>
        ValueAsync(_ => condition(), holds => holds, what, timeout, poll, context, cancellationToken);

    /// <summary>Checks until <paramref name="condition"/> holds (state in memory, changed by another thread).</summary>
    public static Task UntilAsync(Func<bool> condition, string what,
        TimeSpan? timeout = null, TimeSpan? poll = null, Func<string>? context = null, CancellationToken cancellationToken = default) =>
        ValueAsync(_ => Task.FromResult(condition()), holds => holds, what, timeout, poll, context, cancellationToken);

    private static string Describe<T>(T value)
    {
        var text = value?.ToString() ?? "null";
        return text.Length <= 500 ? text : text[..500] + "…";
    }
}
