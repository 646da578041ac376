using System.Net;
using Microsoft.Azure.Cosmos;
using Microsoft.Extensions.Options;
using SensorPipeline.Functions.Options;
using SensorPipeline.Functions.Telemetry;

namespace SensorPipeline.Functions.Storage;

/// <summary>
/// Bounded retry of one store operation on transient answers (429, 408, 449, 503, 410, 500, a timeout of our own),
/// with exponential back-off that honours the server's retry-after. Every attempt is bounded by
/// <see cref="CosmosOptions.OperationTimeout"/> so a frozen store fails the invocation instead of hanging it.
/// When the attempts run out it throws <see cref="StoreUnavailableException"/>: the invocation fails and the
/// host's retry policy takes over, so the batch is never checkpointed past an unwritten document.
/// </summary>
internal sealed class StoreRetry
{
    private readonly TimeProvider _clock;
    private readonly PipelineMetrics _metrics;
    private readonly ILogger<StoreRetry> _logger;
    private readonly int _retries;
    private readonly TimeSpan _baseDelay;
    private readonly TimeSpan _maxDelay;
    private readonly TimeSpan _operationTimeout;

    public StoreRetry(IOptions<PipelineOptions> pipeline, IOptions<CosmosOptions> cosmos, TimeProvider clock, PipelineMetrics metrics, ILogger<StoreRetry> logger)
    {
        ArgumentNullException.ThrowIfNull(pipeline);
        ArgumentNullException.ThrowIfNull(cosmos);
        _clock = clock;
        _metrics = metrics;
        _logger = logger;
        _retries = pipeline.Value.TransientRetryCount;
        _baseDelay = pipeline.Value.TransientRetryBaseDelay;
        _maxDelay = pipeline.Value.TransientRetryMaxDelay;
        _operationTimeout = cosmos.Value.OperationTimeout;
    }

    /// <summary>
    /// Runs <paramref name="operation"/> until it answers something not transient, and returns that answer
    /// (the caller disposes it and decides what a 404, 409, 412 or 400 means for its write).
    /// </summary>
    /// <param name="container">The container's name (for metrics).</param>
    /// <param name="name">The operation's name (for metrics, logs and the failure message).</param>
    /// <param name="state">Passed to <paramref name="operation"/> (a static lambda allocates no closure).</param>
    /// <param name="operation">One attempt; gets a token that also fires at <see cref="CosmosOptions.OperationTimeout"/>.</param>
    /// <param name="cancellationToken">The invocation's token.</param>
    /// <param name="isTransient">Overrides <see cref="StoreStatus.IsTransient"/> for an operation whose answers mean more (a read).</param>
    public async Task<ResponseMessage> ExecuteAsync<TState>(string container, string name, TState state, Func<TState, CancellationToken, Task<ResponseMessage>> operation,
        CancellationToken cancellationToken, Func<HttpStatusCode, bool>? isTransient = null)
    {
        ArgumentNullException.ThrowIfNull(operation);
        isTransient ??= StoreStatus.IsTransient;
        var started = _clock.GetTimestamp();
        for (var attempt = 0; ; attempt++)
        {
            cancellationToken.ThrowIfCancellationRequested();
            HttpStatusCode status;
            TimeSpan? retryAfter = null;
            Exception? failure = null;
            using (var timeout = new CancellationTokenSource(_operationTimeout, _clock))
            using (var linked = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, timeout.Token))
            {
                try
                {
                    var response = await WithinAsync(operation(state, linked.Token), linked.Token);
                    if (!isTransient(response.StatusCode))
                    {
                        _metrics.CosmosCall(container, name, _clock.GetElapsedTime(started), response.Headers.RequestCharge, (int)response.StatusCode);
                        return response;
                    }

                    status = response.StatusCode;
                    retryAfter = RetryAfter(response.Headers);
                    response.Dispose();
                }
                catch (CosmosException e) when (isTransient(e.StatusCode))
                {
                    status = e.StatusCode;
                    retryAfter = e.RetryAfter;
                    failure = e;
                }
                catch (OperationCanceledException e) when (!cancellationToken.IsCancellationRequested)
                {
                    // Our own per-operation timeout fired (the caller did not cancel): the store is not answering.
                    status = HttpStatusCode.RequestTimeout;
                    failure = e;
                }
                catch (HttpRequestException e)
                {
                    status = HttpStatusCode.ServiceUnavailable;
                    failure = e;
                }
            }

            if (attempt >= _retries)
            {
                _metrics.CosmosCall(container, name, _clock.GetElapsedTime(started), 0, (int)status);
                throw new StoreUnavailableException(name, status, attempt + 1, failure);
            }

            _metrics.CosmosRetry(container, (int)status);
            var delay = Backoff(attempt, retryAfter);
            FunctionsLog.TransientStoreFailure(_logger, name, (int)status, attempt + 1, delay.TotalMilliseconds);
            await Task.Delay(delay, _clock, cancellationToken);
        }
    }

    /// <summary>
    /// Waits for one attempt, but never past <paramref name="token"/>. The SDK's bulk mode checks a token only while a
    /// write waits in its queue: once its batch request is on the wire, a store that stopped answering holds the write
    /// for the HTTP client's own timeout (a minute), whatever ours is. So the attempt is abandoned at our timeout and
    /// retried (writes are idempotent upserts and guarded patches); what it answers later is disposed, and its
    /// failure observed, never lost silently in a finalizer.
    /// </summary>
    private static async Task<ResponseMessage> WithinAsync(Task<ResponseMessage> attempt, CancellationToken token)
    {
        try
        {
            return await attempt.WaitAsync(token);
        }
        catch (OperationCanceledException) when (!attempt.IsCompleted)
        {
            _ = attempt.ContinueWith(static t =>
            {
                if (t.IsCompletedSuccessfully)
                {
                    t.Result.Dispose();
                }
                else
                {
                    _ = t.Exception; // observed: the attempt was already counted as timed out
                }
            }, CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
            throw;
        }
    }

    /// <summary>The server's back-off hint on a 429/449 (<c>x-ms-retry-after-ms</c>), when it gave one.</summary>
    private static TimeSpan? RetryAfter(Headers headers) =>
        double.TryParse(headers["x-ms-retry-after-ms"], System.Globalization.NumberStyles.Float, System.Globalization.CultureInfo.InvariantCulture, out var ms) && ms >= 0
            ? TimeSpan.FromMilliseconds(ms)
            : null;

    /// <summary>base × 2^attempt, at least the server's retry-after, at most the configured maximum.</summary>
    internal TimeSpan Backoff(int attempt, TimeSpan? retryAfter)
    {
        var exponential = _baseDelay * Math.Pow(2, Math.Min(attempt, 20));
        var delay = retryAfter is { } after && after > exponential ? after : exponential;
        return delay > _maxDelay ? _maxDelay : delay;
    }
}
