namespace SensorPipeline.FunctionsHost.Tests;

/// <summary>Pausing a function and the trigger's initial offset, through real devhost (the SDK's processor on its AMQP
/// endpoint, checkpoints on the app's own azurite).</summary>
public sealed class PauseAndOffsetTests
{
    [Fact]
    public async Task PauseAndResume_EventsSentWhilePaused_LagBuildsThenDrains()
    {
        await using var app = new TestApp();
        app.AddTriggeredFunction("Marker", consumerGroup: "marker");
        app.SetScript("""{"Marker": {"mode": "ok", "delayMs": 300}, "*": {"mode": "ok"}}""");
        Assert.Null(await app.StartAsync());
        using (var paused = await app.Http.PostAsync(app.At("admin/functions/Fn/pause"), null))
        {
            Assert.True(paused.IsSuccessStatusCode);
        }

        await app.SendAsync("input", "0", "a", "b", "c", "d", "e");
        // Nothing may reach Fn while it is paused. First a positive signal that the events were there to be taken: an
        // unpaused function reading the same partition on the same cadence took all five and answered (300 ms late, so
        // an unpaused Fn, invoked as soon as it read them, would have recorded its invocation by then).
        await app.WaitUntilAsync(async () => await app.CheckpointAsync("0", "Marker") == 4, "the unpaused Marker function to take all five events");
        Assert.DoesNotContain(app.Records(), r => r.Url == "/Fn");
        var fn = Function(await app.StatusAsync(), "Fn");
        Assert.True(fn.GetProperty("paused").GetBoolean());
        Assert.Equal(5, fn.GetProperty("partitions")[0].GetProperty("lag").GetInt64());

        using (var resumed = await app.Http.PostAsync(app.At("admin/functions/Fn/resume"), null))
        {
            Assert.True(resumed.IsSuccessStatusCode);
        }

        await app.WaitUntilAsync(async () => await app.CheckpointAsync("0") == 4, "the backlog drained");
        fn = Function(await app.StatusAsync(), "Fn");
        Assert.Equal(0, fn.GetProperty("partitions")[0].GetProperty("lag").GetInt64());

        using var unknown = await app.Http.PostAsync(app.At("admin/functions/Nope/pause"), null);
        Assert.Equal(System.Net.HttpStatusCode.NotFound, unknown.StatusCode);
    }

    [Fact]
    public async Task Pause_FromABrowserLikeRequest_IsForbiddenAndPausesNothing()
    {
        await using var app = new TestApp();
        Assert.Null(await app.StartAsync());
        using var browser = new HttpClient { Timeout = TimeSpan.FromSeconds(30) };

        // What any web page can send without a preflight: a form POST from its own origin.
        using var form = new HttpRequestMessage(HttpMethod.Post, app.At("admin/functions/Fn/pause")) { Content = new FormUrlEncodedContent([new("x", "1")]) };
        form.Headers.Add("Origin", "http://evil.example");
        using var simple = await browser.SendAsync(form);
        Assert.Equal(System.Net.HttpStatusCode.Forbidden, simple.StatusCode);

        // DNS rebinding: the page is same-origin with devhost under its own name, so it may add headers — but the Host is not loopback.
        using var rebound = new HttpRequestMessage(HttpMethod.Post, app.At("admin/functions/Fn/pause"));
        rebound.Headers.Add("X-DevHost-Admin", "1");
        rebound.Headers.Host = "evil.example:" + app.Url!.Port;
        using var rebinding = await browser.SendAsync(rebound);
        Assert.Equal(System.Net.HttpStatusCode.Forbidden, rebinding.StatusCode);

        Assert.False((await app.StatusAsync()).GetProperty("functions")[0].GetProperty("paused").GetBoolean());
    }

    [Fact]
    public async Task InitialOffsetFromEnd_SkipsEventsEnqueuedBeforeStart_CheckpointWinsAfterwards()
    {
        await using var app = new TestApp();
        app.RemoveFunction("Fn");
        Assert.Null(await app.StartAsync());
        await app.SendAsync("input", "0", "old-0", "old-1");
        await app.KillAsync();

        // Now a function appears, starting fromEnd: the two old events are not delivered.
        File.WriteAllText(Path.Combine(app.Root, "host.json"), File.ReadAllText(Path.Combine(app.Root, "host.json"))
            .Replace("\"maxEventBatchSize\":10", "\"maxEventBatchSize\":10,\"initialOffsetOptions\":{\"type\":\"fromEnd\"}", StringComparison.Ordinal));
        app.AddTriggeredFunction("Fn", underFunctionsFolder: false);
        Assert.Null(await app.StartAsync());

        // The listener takes its fromEnd position when it starts; keep sending until something arrives, so the test
        // does not depend on when that is. Whatever is delivered, the two old events never are.
        var sent = 0;
        await Eventually.UntilAsync(
            async () =>
            {
                await app.SendAsync("input", "0", $"new-{sent++}");
                return app.Records().Count > 0;
            },
            "a new event", TimeSpan.FromSeconds(40), TimeSpan.FromMilliseconds(100), () => "--- devhost output ---\n" + app.Output);
        Assert.All(app.Records().SelectMany(r => r.SequenceNumbers), sequence => Assert.True(sequence >= 2, $"old event {sequence} was delivered"));
    }

    private static JsonElement Function(JsonElement status, string name) =>
        status.GetProperty("functions").EnumerateArray().Single(f => f.GetProperty("name").GetString() == name);
}
