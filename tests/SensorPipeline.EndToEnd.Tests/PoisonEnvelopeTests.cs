using System.Diagnostics;
using System.Net.Http.Headers;

namespace SensorPipeline.EndToEnd.Tests;

/// <summary>
/// A forged envelope on a processor hub, through the real devhost (Event Hubs REST send, the Functions host's
/// retry policy) into the real handler: it must be dead-lettered, and the valid envelope queued behind it on the
/// same partition must be stored — not wait behind an invocation that fails forever.
/// </summary>
[Collection(StackCollections.Readings)]
public sealed class PoisonEnvelopeTests
{
    private const string WeatherPartition0 = "weather/partitions/0/messages";

    [Fact]
    public async Task WeatherHub_EnvelopeWithOutOfRangeEnqueuedTime_DeadLetteredAndTheEnvelopeBehindItStored()
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(4));
        await using var stack = await RawSendPipeline.StartAsync("poison", timeout.Token);
        var pipeline = stack.Pipeline;
        var now = DateTimeOffset.UtcNow;
        var forgedDevice = RawSendPipeline.NewDeviceId("forged-");
        var validDevice = RawSendPipeline.NewDeviceId("behind-");

        // The splitter writes whatever enqueued time its input carries: long.MaxValue is the corrupted/forged value.
        var forged = RawSendPipeline.WeatherEnvelope([RawSendPipeline.Weather(forgedDevice, 1, now)], long.MaxValue);
        var valid = RawSendPipeline.WeatherEnvelope([RawSendPipeline.Weather(validDevice, 1, now)], now.ToUnixTimeMilliseconds());
        var forgedSequence = await stack.SendAsync(WeatherPartition0, forged, timeout.Token);
        await stack.SendAsync(WeatherPartition0, valid, timeout.Token);

        var started = Stopwatch.StartNew();
        var reading = await stack.WaitForDocumentAsync("readings", SensorPipeline.Core.GeoJson.DocumentIds.ReadingId(validDevice, 1, now), validDevice, timeout.Token);
        var deadLetterId = string.Create(CultureInfo.InvariantCulture, $"weather-processor:0:{forgedSequence}");
        var letter = await stack.WaitForDocumentAsync("deadletters", deadLetterId, deadLetterId, timeout.Token);

        Assert.Equal(validDevice, reading.GetProperty("deviceId").GetString());
        Assert.Equal("invalid-source", letter.GetProperty("reason").GetString());
        Assert.Equal(forged, letter.GetProperty("payloadBase64").GetBytesFromBase64());
        // Well within the first retry's back-off (2 s): the forged envelope never failed an invocation.
        var status = await pipeline.GetFunctionsStatusAsync(timeout.Token);
        Assert.Equal(0, status.Functions.Single(f => f.Name == "WeatherProcessor").InvocationsFailed);
        Assert.True(started.Elapsed < TimeSpan.FromMinutes(2), $"stored after {started.Elapsed}");
    }
}
