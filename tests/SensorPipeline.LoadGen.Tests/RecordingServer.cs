using System.Collections.Concurrent;
using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using SensorPipeline.Clients;

namespace SensorPipeline.LoadGen.Tests;

/// <summary>One request the server received.</summary>
internal sealed record RecordedRequest(string Method, string Path, string? ContentType, string Authorization, byte[] Body, int AnsweredWith, DateTimeOffset At);

/// <summary>
/// A tiny Kestrel server on a free loopback port that stands in for the Event Hubs REST API: it records every
/// request and answers from a script (status codes in order, then <see cref="DefaultStatus"/>).
/// </summary>
internal sealed class RecordingServer : IAsyncDisposable
{
    private readonly WebApplication _app;
    private readonly ConcurrentQueue<int> _script = new();

    private RecordingServer(WebApplication app) => _app = app;

    public ConcurrentQueue<RecordedRequest> Requests { get; } = new();

    /// <summary>The answer once the script is used up. Default 201.</summary>
    public int DefaultStatus { get; set; } = 201;

    public Uri BaseAddress { get; private set; } = null!;

    public static async Task<RecordingServer> StartAsync()
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.WebHost.ConfigureKestrel(k => k.Listen(IPAddress.Loopback, 0));
        builder.Logging.ClearProviders();
        var app = builder.Build();
        var server = new RecordingServer(app);
        app.MapPost("/{**path}", server.HandleAsync);
        await app.StartAsync();
        var address = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First();
        server.BaseAddress = new Uri(address);
        return server;
    }

    /// <summary>Answers the next requests with these statuses, in order.</summary>
    public void Script(params int[] statuses)
    {
        foreach (var status in statuses)
        {
            _script.Enqueue(status);
        }
    }

    public string EmulatorConnectionString =>
        EventHubsEmulatorAccount.ConnectionString(BaseAddress.Port);

    public async ValueTask DisposeAsync()
    {
        await _app.StopAsync();
        await _app.DisposeAsync();
    }

    private async Task HandleAsync(HttpContext context)
    {
        using var buffer = new MemoryStream();
        await context.Request.Body.CopyToAsync(buffer, context.RequestAborted);
        var path = context.Request.Path.Value ?? "";
        // devhost's routes: the send API answers from the script, the pause control with 200 (403 without the admin
        // header, as devhost answers), anything else 404.
        var status = path.EndsWith("/messages", StringComparison.Ordinal) ? (_script.TryDequeue(out var scripted) ? scripted : DefaultStatus)
            : path.StartsWith("/admin/functions/", StringComparison.Ordinal) ? (context.Request.Headers["X-DevHost-Admin"] == "1" ? 200 : 403)
            : 404;
        Requests.Enqueue(new RecordedRequest(context.Request.Method, context.Request.Path.Value ?? "", context.Request.ContentType,
            context.Request.Headers.Authorization.ToString(), buffer.ToArray(), status, DateTimeOffset.UtcNow));
        context.Response.StatusCode = status;
        if (status is not (201 or 200))
        {
            await context.Response.WriteAsync("scripted " + status.ToString(System.Globalization.CultureInfo.InvariantCulture), context.RequestAborted);
        }
    }
}
