using SensorPipeline.Core.Readings;
using SensorPipeline.LoadGen.Cli;
using SensorPipeline.LoadGen.Run;
using SensorPipeline.Stack.Chaos;

namespace SensorPipeline.EndToEnd.Tests;

/// <summary>
/// The demo's and chaos' loadgen command lines, read by loadgen's own parser (pure: no stack started): every kind of
/// sensor-kinds.json gets devices and, in the demo's backlog episode, its processor paused. A kind added to the list
/// and left out of either run fails here.
/// </summary>
[Trait("Category", "Fast")]
public sealed class KindLoadTests
{
    private static readonly IReadOnlyList<SensorKindDefinition> Kinds = SensorKindCatalog.Default.All;
    private static readonly string Connection = SensorPipeline.Clients.EventHubsEmulatorAccount.ConnectionString(5300);

    [Fact]
    public void DemoLoadGenArguments_EveryKindOfTheCatalog_HasDevicesAndItsProcessorPaused()
    {
        var demo = new DemoOptions();
        var send = Demo.LoadGenArguments(RepoLayout.Current, Connection, pauses: true, demo, "ledger.json", "40s");

        var options = LoadGenSees(send);

        Assert.All(Kinds, k => Assert.Equal(demo.DevicesPerKind, options.Devices[k.Name]));
        Assert.Equal(Kinds.Select(static k => k.Processor), options.PauseFunctions);
        Assert.All(options.PauseFunctions, f => Assert.True(File.Exists(RepoLayout.Current.File("functions", f, "function.json")), $"functions/{f}/function.json"));
    }

    [Fact]
    public void DemoLoadGenArguments_SeparateInstances_PauseNothing()
    {
        var send = Demo.LoadGenArguments(RepoLayout.Current, Connection, pauses: false, new DemoOptions(), "ledger.json", "40s");

        Assert.Empty(LoadGenSees(send).PauseFunctions);
    }

    [Fact]
    public void ChaosLoadGenArguments_EveryFaultsPhase_HasDevicesOfEveryKind()
    {
        var chaos = new ChaosOptions();
        foreach (var (fault, index) in ChaosFaults.All.Select((f, i) => (f, i)))
        {
            var send = Phase.LoadGenArguments(RepoLayout.Current, Connection, chaos, TimeSpan.FromSeconds(30), index, "ledger.json", fault.LoadArguments(2));

            var options = LoadGenSees(send);

            Assert.All(Kinds, k => Assert.Equal(chaos.DevicesPerKind, options.Devices[k.Name]));
        }
    }

    // The first argument is loadgen's dll (dotnet runs it); the rest are loadgen's.
    private static SendOptions LoadGenSees(List<string> send)
    {
        Assert.Equal(RepoLayout.Current.LoadGenDll, send[0]);
        return SendCommand.Parse(send[1..]);
    }
}
