using System.Text;
using SensorPipeline.Clients;
using SensorPipeline.FunctionsHost.Config;

namespace SensorPipeline.FunctionsHost.Tests;

/// <summary>
/// The host against a namespace it does not serve (<c>FunctionsHost:ExternalNamespace=true</c>, what <c>./pipeline up
/// --eventhubs --storage</c> sets), tested offline: one devhost is "the namespace", a second runs the function app with
/// the first one's connection string and its own azurite's, as the real-Azure run does with a namespace's and an
/// account's.
/// </summary>
public sealed class ExternalNamespaceTests
{
    [Fact]
    public async Task ExternalNamespace_ConnectionStrings_ConsumesAndOutputsThereNotInItsOwnEmulator()
    {
        await using var ns = new TestApp();
        ns.RemoveFunction("Fn");
        Assert.Null(await ns.StartAsync());
        await using var local = NewLocalApp(ns);
        local.SetScript("""{"Fn": {"mode": "ok", "outputs": {"out": ["forwarded"]}}}""");
        Assert.Null(await local.StartAsync());

        await ns.SendAsync("input", "0", "a", "b", "c");
        await local.WaitForRecordsAsync(r => r.SelectMany(x => x.SequenceNumbers).Count() == 3, "the three events of the external namespace delivered");
        await local.WaitUntilAsync(async () => await local.CheckpointAsync("0") == 2, "the checkpoint (in the local app's azurite) at the last event");
        await local.WaitUntilAsync(async () => (await ns.PeekAsync("output", "0")).Count + (await ns.PeekAsync("output", "1")).Count == local.Records().Count,
            "each invocation's output event in the external namespace's output hub");
        var body = (await ns.PeekAsync("output", "0")).Concat(await ns.PeekAsync("output", "1")).First().GetProperty("bodyBase64").GetString()!;
        Assert.Equal("forwarded", Encoding.UTF8.GetString(Convert.FromBase64String(body)));

        // Its own emulator saw nothing: no input, no output.
        Assert.Empty(await local.PeekAsync("input", "0"));
        Assert.Empty((await local.PeekAsync("output", "0")).Concat(await local.PeekAsync("output", "1")));
    }

    [Fact]
    public async Task ExternalNamespace_ConsumerGroupMissingThere_RefusesAtStartNamingIt()
    {
        await using var ns = new TestApp();
        ns.RemoveFunction("Fn");
        Assert.Null(await ns.StartAsync());
        await using var local = NewLocalApp(ns);
        local.AddTriggeredFunction("Other", consumerGroup: "local-run-group");

        var exit = await local.StartAsync();
        Assert.NotNull(exit);
        Assert.NotEqual(0, exit);
        Assert.Contains("consumer group 'local-run-group' does not exist on hub 'input'", local.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ExternalNamespace_RunConsumerGroups_ReadsWithItsOwnGroupBesideTheDeployedApp()
    {
        // "The namespace" runs the deployed app: Fn reads input with the group fn. The namespace also has fn-run.
        await using var ns = new TestApp();
        var config = Path.Combine(ns.Root, "eventhubs.emulator.json");
        File.WriteAllText(config, File.ReadAllText(config).Replace("""{"Name": "marker"}""", """{"Name": "marker"}, {"Name": "fn-run"}""", StringComparison.Ordinal));
        Assert.Null(await ns.StartAsync());
        // The local run: the same function naming its group by a setting (fn, as deployed), replaced for the run as
        // ./pipeline up --eventhubs does, through the environment.
        await using var local = NewLocalApp(ns, new Dictionary<string, string> { ["FnConsumerGroup"] = "fn" });
        local.RemoveFunction("Fn");
        local.AddTriggeredFunction("Fn", "%InputHub%", "%FnConsumerGroup%");
        var run = RunConsumerGroups.Settings(await FunctionAppLoader.LoadAsync(local.Root, CancellationToken.None), "run");
        Assert.Equal(new Dictionary<string, string> { ["FnConsumerGroup"] = "fn-run" }, run);
        foreach (var (setting, group) in run)
        {
            local.Environment[setting] = group;
        }

        Assert.Null(await local.StartAsync());

        await ns.SendAsync("input", "0", "a", "b", "c");
        // Each group gets every event: the deployed app loses none to the local run, and the local run sees them all.
        await local.WaitForRecordsAsync(r => r.SelectMany(x => x.SequenceNumbers).Count() == 3, "the local run's three events");
        await ns.WaitForRecordsAsync(r => r.SelectMany(x => x.SequenceNumbers).Count() == 3, "the deployed app's three events");
        Assert.Equal("fn-run", ConsumerGroupOf(await local.StatusAsync()));
        Assert.Equal("fn", ConsumerGroupOf(await ns.StatusAsync()));
        await local.WaitUntilAsync(async () => await local.CheckpointAsync("0") == 2, "the local run's checkpoint at the last event");
    }

    private static string? ConsumerGroupOf(System.Text.Json.JsonElement status) =>
        status.GetProperty("functions").EnumerateArray().Single(f => f.GetProperty("name").GetString() == "Fn").GetProperty("consumerGroup").GetString();

    private static TestApp NewLocalApp(TestApp ns, Dictionary<string, string>? settings = null)
    {
        var local = new TestApp();
        local.WriteLocalSettings(new Dictionary<string, string>(settings ?? []) { ["EventHubConnection"] = EventHubsEmulatorAccount.ConnectionString(ns.Url!.Port) });
        local.ExtraSettings.Add("FunctionsHost:ExternalNamespace=true");
        return local;
    }
}
