using Microsoft.Extensions.Logging;
using SensorPipeline.LoadGen.Ledger;

namespace SensorPipeline.LoadGen.Run;

/// <summary>
/// Builds a backlog on purpose: pauses functions through devhost's control endpoint, waits, resumes them.
/// The resume always happens — also when the run is interrupted — or the local pipeline would stay stuck.
/// </summary>
internal sealed class PauseController
{
    private readonly HttpClient _client;
    private readonly Uri _devHost;
    private readonly SendOptions _options;
    private readonly TimeProvider _time;
    private readonly ILogger _logger;

    /// <summary>The episode once it ended (null until then, and when nothing was paused).</summary>
    public LedgerPause? Episode { get; private set; }

    public PauseController(HttpClient client, Uri devHost, SendOptions options, TimeProvider time, ILogger logger)
    {
        _client = client;
        _devHost = devHost;
        _options = options;
        _time = time;
        _logger = logger;
    }

    /// <summary>Pauses after <see cref="SendOptions.PauseAfter"/>, resumes after <see cref="SendOptions.PauseFor"/>
    /// (at once when <paramref name="cancellationToken"/> fires). False when a control call failed.</summary>
    public async Task<bool> RunAsync(CancellationToken cancellationToken)
    {
        try
        {
            await Task.Delay(_options.PauseAfter, _time, cancellationToken);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            return true; // interrupted before pausing: nothing to undo
        }

        var ok = true;
        var paused = new List<string>();
        var pausedAt = _time.GetUtcNow();
        try
        {
            foreach (var name in _options.PauseFunctions)
            {
                if (await CallAsync(_options.PauseRoute, name, cancellationToken))
                {
                    paused.Add(name);
                    LoadGenLog.FunctionPaused(_logger, name, _options.PauseFor!.Value);
                }
                else
                {
                    ok = false;
                }
            }

            await Task.Delay(_options.PauseFor!.Value, _time, cancellationToken);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // Interrupted while paused: fall through and resume now.
        }
        finally
        {
            // A fresh bounded token: the run's token may already be cancelled, and the resume must still go out.
            using var resumeTimeout = new CancellationTokenSource(TimeSpan.FromSeconds(10), _time);
            foreach (var name in paused)
            {
                if (await CallAsync(_options.ResumeRoute, name, resumeTimeout.Token))
                {
                    LoadGenLog.FunctionResumed(_logger, name);
                }
                else
                {
                    ok = false;
                }
            }

            if (paused.Count > 0)
            {
                Episode = new LedgerPause(pausedAt, _time.GetUtcNow(), paused);
            }
        }

        return ok;
    }

    private async Task<bool> CallAsync(string route, string function, CancellationToken cancellationToken)
    {
        var url = new Uri(_devHost, route.Replace("{name}", Uri.EscapeDataString(function), StringComparison.Ordinal));
        try
        {
            // devhost answers its admin endpoints only to a request no web page can send: this header, a loopback Host.
            using var request = new HttpRequestMessage(HttpMethod.Post, url) { Headers = { { "X-DevHost-Admin", "1" } } };
            using var response = await _client.SendAsync(request, cancellationToken);
            if (response.IsSuccessStatusCode)
            {
                return true;
            }

            LoadGenLog.PauseControlFailed(_logger, url.ToString(), (int)response.StatusCode, await response.Content.ReadAsStringAsync(cancellationToken));
            return false;
        }
        catch (HttpRequestException e)
        {
            LoadGenLog.PauseControlFailed(_logger, url.ToString(), 0, e.Message);
            return false;
        }
    }
}
