using System.Collections.Concurrent;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using SensorPipeline.Clients;

namespace SensorPipeline.Functions.Tests.Infrastructure;

/// <summary>
/// A plain-HTTP reverse proxy on loopback in front of the stand-in that answers chosen document writes itself:
/// a permanent 413 for bodies containing a marker, or a number of 429s with a retry-after for another marker.
/// Everything else passes through unchanged. It lets the tests reach store answers the stand-in never gives.
/// </summary>
internal sealed class FaultProxy : IAsyncDisposable
{
    private readonly WebApplication _app;
    private readonly HttpClient _upstream;
    private readonly ConcurrentDictionary<string, int> _throttles = new(StringComparer.Ordinal);
    private readonly ConcurrentBag<string> _rejectMarkers = [];

    private FaultProxy(WebApplication app, HttpClient upstream, Uri address)
    {
        _app = app;
        _upstream = upstream;
        Address = address;
    }

    public Uri Address { get; }

    /// <summary>429 responses actually sent.</summary>
    public int ThrottlesSent => _throttleCount;

    private int _throttleCount;

    /// <summary>Every write (except to <c>deadletters</c>) whose body contains <paramref name="marker"/> is answered 413.</summary>
    public void RejectWritesContaining(string marker) => _rejectMarkers.Add(marker);

    /// <summary>
    /// Every write (except to <c>deadletters</c>) whose body contains <paramref name="marker"/> — or every write at all
    /// when the marker is empty — is answered <paramref name="status"/> with <c>x-ms-substatus</c> <paramref name="subStatus"/>
    /// until the returned rule is disposed.
    /// </summary>
    public IDisposable AnswerWritesContaining(string marker, HttpStatusCode status, int subStatus)
    {
        _answers[marker] = (status, subStatus);
        return new AnswerRule(_answers, marker);
    }

    /// <summary>Writes to <c>deadletters</c> whose body is larger than <paramref name="bytes"/> are answered 413.</summary>
    public void RejectDeadLettersLargerThan(int bytes) => _deadLetterLimit = bytes;

    /// <summary>Writes to <c>deadletters</c> answered 413 so far.</summary>
    public int DeadLettersRejected => _deadLettersRejected;

    private readonly ConcurrentDictionary<string, (HttpStatusCode Status, int SubStatus)> _answers = new(StringComparer.Ordinal);
    private int _deadLetterLimit = int.MaxValue;
    private int _deadLettersRejected;

    /// <summary>
    /// The next write whose body contains <paramref name="marker"/> is judged by the rules in force when it arrives, then
    /// held until <see cref="HeldWrite.Release"/> before it goes on: a write the store took before a fault, answered late.
    /// </summary>
    public HeldWrite HoldNextWriteContaining(string marker)
    {
        var held = new HeldWrite(marker);
        _holds.Enqueue(held);
        return held;
    }

    private readonly ConcurrentQueue<HeldWrite> _holds = new();

    private LostAnswer? _loseAnswer;

    /// <summary>
    /// The next create (POST) whose body contains <paramref name="marker"/> is forwarded, and the store's answer replaced
    /// by a 408: a write the store took whose answer never arrived. The task completes once that happened.
    /// </summary>
    public Task LoseAnswerToNextCreateContaining(string marker)
    {
        var lost = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        Volatile.Write(ref _loseAnswer, new LostAnswer(marker, lost));
        return lost.Task;
    }

    /// <summary>The first <paramref name="count"/> writes whose body contains <paramref name="marker"/> are answered 429.</summary>
    public void ThrottleWritesContaining(string marker, int count) => _throttles[marker] = count;

    public static async Task<FaultProxy> StartAsync(Uri upstream)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        builder.WebHost.ConfigureKestrel(k => k.Listen(IPAddress.Loopback, 0));
        var app = builder.Build();
        var client = new HttpClient(CosmosClients.LoopbackEmulatorHandler()) { BaseAddress = upstream };
        FaultProxy? proxy = null;
        app.Run(context => proxy!.ForwardAsync(context));
        await app.StartAsync();
        var address = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First();
        proxy = new FaultProxy(app, client, new Uri(address + "/"));
        return proxy;
    }

    public async ValueTask DisposeAsync()
    {
        await _app.StopAsync();
        await _app.DisposeAsync();
        _upstream.Dispose();
    }

    private async Task ForwardAsync(HttpContext context)
    {
        var body = new MemoryStream();
        await context.Request.Body.CopyToAsync(body, context.RequestAborted);
        var bytes = body.ToArray();
        if (context.Request.Method is "POST" or "PUT" or "PATCH" && context.Request.Path.Value?.Contains("/docs", StringComparison.Ordinal) == true)
        {
            var text = System.Text.Encoding.UTF8.GetString(bytes);
            // Dead letters name the device too; they must get through, or the rejection could not be recorded.
            var deadLetter = context.Request.Path.Value!.Contains("/colls/deadletters/", StringComparison.Ordinal);
            if (deadLetter && bytes.Length > _deadLetterLimit)
            {
                Interlocked.Increment(ref _deadLettersRejected);
                await Answer(context, HttpStatusCode.RequestEntityTooLarge, """{"code":"RequestEntityTooLarge","message":"dead letter too large, injected by FaultProxy"}""");
                return;
            }

            foreach (var (marker, (status, subStatus)) in _answers)
            {
                if (!deadLetter && (marker.Length == 0 || text.Contains(marker, StringComparison.Ordinal)))
                {
                    context.Response.Headers["x-ms-substatus"] = subStatus.ToString(System.Globalization.CultureInfo.InvariantCulture);
                    await Answer(context, status, """{"code":"Injected","message":"answered by FaultProxy"}""");
                    return;
                }
            }

            if (!deadLetter && _rejectMarkers.Any(m => text.Contains(m, StringComparison.Ordinal)))
            {
                await Answer(context, HttpStatusCode.RequestEntityTooLarge, """{"code":"RequestEntityTooLarge","message":"injected by FaultProxy"}""");
                return;
            }

            foreach (var marker in _throttles.Keys)
            {
                if (text.Contains(marker, StringComparison.Ordinal) && _throttles.AddOrUpdate(marker, 0, (_, left) => left - 1) >= 0)
                {
                    Interlocked.Increment(ref _throttleCount);
                    context.Response.Headers["x-ms-retry-after-ms"] = "50";
                    await Answer(context, HttpStatusCode.TooManyRequests, """{"code":"TooManyRequests","message":"injected by FaultProxy"}""");
                    return;
                }
            }
        }

        if (context.Request.Method is "POST" or "PUT" or "PATCH" && _holds.TryPeek(out var hold)
            && System.Text.Encoding.UTF8.GetString(bytes).Contains(hold.Marker, StringComparison.Ordinal) && _holds.TryDequeue(out hold))
        {
            await hold.HoldAsync(context.RequestAborted);
        }

        using var request = new HttpRequestMessage(new HttpMethod(context.Request.Method), context.Request.Path + context.Request.QueryString);
        if (bytes.Length > 0 || context.Request.Method is "POST" or "PUT" or "PATCH")
        {
            request.Content = new ByteArrayContent(bytes);
        }

        foreach (var (name, values) in context.Request.Headers)
        {
            if (name.Equals("Host", StringComparison.OrdinalIgnoreCase) || name.Equals("Content-Length", StringComparison.OrdinalIgnoreCase))
            {
                continue;
            }

            if (!request.Headers.TryAddWithoutValidation(name, (IEnumerable<string?>)values))
            {
                request.Content?.Headers.TryAddWithoutValidation(name, (IEnumerable<string?>)values);
            }
        }

        using var response = await _upstream.SendAsync(request, context.RequestAborted);
        if (context.Request.Method == "POST" && Volatile.Read(ref _loseAnswer) is { } lose && System.Text.Encoding.UTF8.GetString(bytes).Contains(lose.Marker, StringComparison.Ordinal)
            && Interlocked.CompareExchange(ref _loseAnswer, null, lose) == lose)
        {
            await Answer(context, HttpStatusCode.RequestTimeout, """{"code":"RequestTimeout","message":"the store took the write; its answer lost by FaultProxy"}""");
            lose.Lost.TrySetResult();
            return;
        }

        context.Response.StatusCode = (int)response.StatusCode;
        // The account document names the emulator's own address as the region endpoint; a client that follows it (as the
        // SDK does unless LimitToEndpoint) would go around the proxy. Name the proxy instead, as a gateway in front would.
        var account = context.Request.Method == "GET" && context.Request.Path.Value is "/" or "";
        foreach (var (name, values) in response.Headers.Concat(response.Content.Headers))
        {
            if (!name.Equals("Transfer-Encoding", StringComparison.OrdinalIgnoreCase) && !name.Equals("Connection", StringComparison.OrdinalIgnoreCase)
                && !(account && name.Equals("Content-Length", StringComparison.OrdinalIgnoreCase)))
            {
                context.Response.Headers[name] = values.ToArray();
            }
        }

        if (account)
        {
            var text = await response.Content.ReadAsStringAsync(context.RequestAborted);
            var upstream = _upstream.BaseAddress!.GetLeftPart(UriPartial.Authority);
            await context.Response.WriteAsync(text.Replace(upstream + "/", Address.AbsoluteUri, StringComparison.OrdinalIgnoreCase)
                .Replace(upstream, Address.GetLeftPart(UriPartial.Authority), StringComparison.OrdinalIgnoreCase), context.RequestAborted);
            return;
        }

        await response.Content.CopyToAsync(context.Response.Body, context.RequestAborted);
    }

    private static async Task Answer(HttpContext context, HttpStatusCode status, string json)
    {
        context.Response.StatusCode = (int)status;
        context.Response.ContentType = "application/json";
        context.Response.Headers["x-ms-activity-id"] = Guid.NewGuid().ToString();
        await context.Response.WriteAsync(json, context.RequestAborted);
    }

    private sealed class AnswerRule(ConcurrentDictionary<string, (HttpStatusCode Status, int SubStatus)> answers, string marker) : IDisposable
    {
        public void Dispose() => answers.TryRemove(marker, out _);
    }
}

/// <summary>A create whose answer <see cref="FaultProxy"/> is to lose, and the signal that it did.</summary>
internal sealed record LostAnswer(string Marker, TaskCompletionSource Lost);

/// <summary>A write <see cref="FaultProxy"/> holds: <see cref="Arrived"/> once it is held, forwarded on <see cref="Release"/>.</summary>
internal sealed class HeldWrite(string marker)
{
    private readonly TaskCompletionSource _arrived = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly TaskCompletionSource _released = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public string Marker { get; } = marker;

    public Task Arrived => _arrived.Task;

    public void Release() => _released.TrySetResult();

    internal Task HoldAsync(CancellationToken cancellationToken)
    {
        _arrived.TrySetResult();
        return _released.Task.WaitAsync(cancellationToken);
    }
}
