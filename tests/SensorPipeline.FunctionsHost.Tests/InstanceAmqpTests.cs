using System.Globalization;
using System.Text;

namespace SensorPipeline.FunctionsHost.Tests;

/// <summary>An instance in its own process reaches the hubs as a host in Azure reaches a namespace: over AMQP on
/// devhost's port (the SDK's processor to read, its producer for output bindings, <c>$management</c> for hubs and
/// bounds), with no devhost-internal route.</summary>
public sealed class InstanceAmqpTests : IAsyncLifetime
{
    private readonly ScaleOutApp _scaleOut = new();

    private TestApp App => _scaleOut.App;

    public Task InitializeAsync() => _scaleOut.StartAsync();

    public async Task DisposeAsync() => await _scaleOut.DisposeAsync();

    [Fact]
    public async Task OutputBinding_InInstanceProcess_AppendsThroughTheProducerToTheOutputHub()
    {
        App.SetScript("""{"Fn": {"mode": "ok", "outputs": {"out": ["a", "b"]}}}""");
        var instance = await _scaleOut.StartInstanceAsync("a");
        await _scaleOut.SendAsync(3);

        // 4 partitions × 3 events, in batches of at most 10: each invocation writes "a" and "b" once.
        await App.WaitUntilAsync(async () => (await OutputTextsAsync()).Count == 2 * App.Records().Count(r => r.Url.EndsWith("/Fn", StringComparison.Ordinal)) && App.Records().Count > 0
            && _scaleOut.Deliveries().Count == ScaleOutApp.Partitions * 3, "every invocation's two output events in the output hub", seconds: 90);
        var texts = await OutputTextsAsync();
        Assert.Equal(texts.Count / 2, texts.Count(t => t == "a"));
        Assert.Equal(texts.Count / 2, texts.Count(t => t == "b"));

        // The instance's status shows the input hub's bounds as $management reports them.
        using var status = JsonDocument.Parse(await App.Http.GetStringAsync(new Uri(instance.BaseAddress, "status/functions")));
        var partitions = status.RootElement.GetProperty("functions")[0].GetProperty("partitions").EnumerateArray().ToList();
        Assert.Equal(ScaleOutApp.Partitions, partitions.Count);
        await App.WaitUntilAsync(async () =>
        {
            using var again = JsonDocument.Parse(await App.Http.GetStringAsync(new Uri(instance.BaseAddress, "status/functions")));
            return again.RootElement.GetProperty("functions")[0].GetProperty("partitions").EnumerateArray().All(p => p.GetProperty("lastEnqueuedSequenceNumber").GetInt64() == 2);
        }, "the instance seeing each partition's last enqueued sequence number 2", seconds: 30);
    }

    [Fact]
    public async Task Start_ConsumerGroupMissingInTheNamespace_RefusesNamingItAndTheFunctionJson()
    {
        App.AddTriggeredFunction("Other", consumerGroup: "nosuchgroup");
        var refused = await Assert.ThrowsAsync<ChildProcessExitedException>(() => _scaleOut.StartInstanceAsync("a"));
        Assert.NotEqual(0, refused.ExitCode);
        Assert.Contains("nosuchgroup", refused.Output, StringComparison.Ordinal);
        Assert.Contains(Path.Combine("Other", "function.json"), refused.Output, StringComparison.Ordinal);
    }

    private async Task<List<string>> OutputTextsAsync()
    {
        var texts = new List<string>();
        for (var p = 0; p < 2; p++)
        {
            foreach (var e in await App.PeekAsync("output", p.ToString(CultureInfo.InvariantCulture)))
            {
                texts.Add(Encoding.UTF8.GetString(Convert.FromBase64String(e.GetProperty("bodyBase64").GetString()!)));
            }
        }

        return texts;
    }
}
