using System.Net;
using Microsoft.Extensions.Logging.Abstractions;
using SensorPipeline.Clients;
using SensorPipeline.Emulators.Common;

namespace SensorPipeline.LoadGen.Tests;

/// <summary>The sender against a real HTTP server (Kestrel on a free loopback port) that records requests and answers from a script.</summary>
[Trait("Category", "Fast")]
public sealed class EventSenderTests : IAsyncLifetime
{
    private static readonly SenderSettings Settings = new(4, 4, TimeSpan.FromMilliseconds(10), TimeSpan.FromMilliseconds(50), TimeSpan.FromSeconds(10));
    private RecordingServer _server = null!;
    private EventSender _sender = null!;

    public async Task InitializeAsync()
    {
        _server = await RecordingServer.StartAsync();
        _sender = Create(_server.BaseAddress, Settings);
    }

    public async Task DisposeAsync()
    {
        _sender.Dispose();
        await _server.DisposeAsync();
    }

    [Fact]
    public async Task SendAsync_Accepted_OnePostOfTheRawBodyWithAValidSas()
    {
        byte[] body = [0x0A, 0x03, 1, 2, 3, 0xFF];

        var outcome = await _sender.SendAsync(body, CancellationToken.None);

        Assert.Equal(SendStatus.Sent, outcome.Status);
        Assert.Equal(0, outcome.Retries);
        var request = Assert.Single(_server.Requests);
        Assert.Equal("POST", request.Method);
        Assert.Equal("/ingestion/messages", request.Path);
        Assert.Equal("application/octet-stream", request.ContentType);
        Assert.Equal(body, request.Body);
        AssertValidSas(request.Authorization, EventHubsEmulatorAccount.Key);
    }

    [Fact]
    public async Task SendAsync_UnavailableThenAccepted_SentWithOneRetry()
    {
        _server.Script(503, 201);

        var outcome = await _sender.SendAsync(new byte[] { 1 }, CancellationToken.None);

        Assert.Equal(SendStatus.Sent, outcome.Status);
        Assert.Equal(1, outcome.Retries);
        Assert.Equal([503, 201], _server.Requests.Select(r => r.AnsweredWith));
        Assert.Equal(2, _server.Requests.Select(r => Convert.ToHexString(r.Body)).Count(b => b == "01"));
    }

    [Theory]
    [InlineData(400)]
    [InlineData(401)]
    [InlineData(404)]
    [InlineData(413)]
    public async Task SendAsync_PermanentFailure_RejectedAtOnceWithTheServiceMessage(int status)
    {
        _server.Script(status);

        var outcome = await _sender.SendAsync(new byte[] { 1 }, CancellationToken.None);

        Assert.Equal(SendStatus.Rejected, outcome.Status);
        Assert.Equal(status, outcome.StatusCode);
        Assert.Equal(1, outcome.Attempts);
        Assert.Contains("scripted " + status, outcome.Detail, StringComparison.Ordinal);
        Assert.Single(_server.Requests);
    }

    [Theory]
    [InlineData(408)]
    [InlineData(429)]
    [InlineData(500)]
    public async Task SendAsync_TransientEveryTime_GivesUpAfterMaxAttempts(int status)
    {
        _server.DefaultStatus = status;

        var outcome = await _sender.SendAsync(new byte[] { 1 }, CancellationToken.None);

        Assert.Equal(SendStatus.GaveUp, outcome.Status);
        Assert.Equal(Settings.MaxAttempts, outcome.Attempts);
        Assert.Equal(Settings.MaxAttempts, _server.Requests.Count);
    }

    [Fact]
    public async Task SendAsync_ConnectionRefused_GivesUpAfterMaxAttempts()
    {
        var port = LoopbackPort.GetFree();
        using var sender = Create(new Uri($"http://127.0.0.1:{port}"), Settings);

        var outcome = await sender.SendAsync(new byte[] { 1 }, CancellationToken.None);

        Assert.Equal(SendStatus.GaveUp, outcome.Status);
        Assert.Equal(0, outcome.StatusCode);
        Assert.Equal(Settings.MaxAttempts, outcome.Attempts);
    }

    [Fact]
    public void Backoff_DoublesWithJitter_CappedAndRespectsRetryAfterUpToTheCap()
    {
        using var sender = Create(_server.BaseAddress, new SenderSettings(1, 10, TimeSpan.FromMilliseconds(100), TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(1)));

        Assert.InRange(sender.Backoff(1, null), TimeSpan.FromMilliseconds(50), TimeSpan.FromMilliseconds(100));
        Assert.InRange(sender.Backoff(3, null), TimeSpan.FromMilliseconds(200), TimeSpan.FromMilliseconds(400));
        Assert.InRange(sender.Backoff(30, null), TimeSpan.FromMilliseconds(500), TimeSpan.FromSeconds(1));
        Assert.Equal(TimeSpan.FromMilliseconds(900), sender.Backoff(1, TimeSpan.FromMilliseconds(900)));
        Assert.Equal(TimeSpan.FromSeconds(1), sender.Backoff(1, TimeSpan.FromMinutes(5)));
    }

    [Theory]
    [InlineData(HttpStatusCode.RequestTimeout, true)]
    [InlineData(HttpStatusCode.TooManyRequests, true)]
    [InlineData(HttpStatusCode.InternalServerError, true)]
    [InlineData(HttpStatusCode.ServiceUnavailable, true)]
    [InlineData(HttpStatusCode.BadRequest, false)]
    [InlineData(HttpStatusCode.Unauthorized, false)]
    [InlineData(HttpStatusCode.Forbidden, false)]
    [InlineData(HttpStatusCode.NotFound, false)]
    [InlineData(HttpStatusCode.RequestEntityTooLarge, false)]
    public void IsTransient_Status_TrueOnlyForRetryableOnes(HttpStatusCode status, bool transient) =>
        Assert.Equal(transient, EventSender.IsTransient(status));

    internal static void AssertValidSas(string header, string key)
    {
        // The emulator's verifier: key name and signature, not expired, and covering the ingestion hub only.
        Assert.Null(SharedAccessSignature.Check(header, "ingestion/messages", EventHubsEmulatorAccount.KeyName, key, DateTimeOffset.UtcNow));
        Assert.NotNull(SharedAccessSignature.Check(header, "weather/messages", EventHubsEmulatorAccount.KeyName, key, DateTimeOffset.UtcNow));
    }

    private static EventSender Create(Uri baseAddress, SenderSettings settings) =>
        new(EventSender.MessagesUriFor(baseAddress, "ingestion"),
            new SasAuthorization(baseAddress.GetLeftPart(UriPartial.Authority) + "/ingestion", EventHubsEmulatorAccount.KeyName, EventHubsEmulatorAccount.Key, TimeProvider.System),
            settings, TimeProvider.System, NullLogger.Instance);
}
