using SensorPipeline.Clients;
using SensorPipeline.Core.Readings;
using SensorPipeline.LoadGen.Cli;
using SensorPipeline.LoadGen.Run;

namespace SensorPipeline.LoadGen.Tests;

/// <summary>How the send command's device options bind for the kinds of sensor-kinds.json.</summary>
[Trait("Category", "Fast")]
public sealed class SendCommandTests
{
    private static readonly IReadOnlyList<SensorKindDefinition> Kinds = SensorKindCatalog.Default.All;

    [Fact]
    public void Parse_DevicesPerKind_GivesEveryKindOfTheCatalogThatMany()
    {
        var options = SendCommand.Parse(["--connection", EventHubsEmulatorAccount.ConnectionString(5300), "--devices-per-kind", "7"]);

        Assert.Equal(Kinds.Select(static k => k.Name).Order(StringComparer.Ordinal), options.Devices.Keys.Order(StringComparer.Ordinal));
        Assert.All(Kinds, k => Assert.Equal(7, options.Devices[k.Name]));
    }

    [Fact]
    public void Parse_KindOptionBesideDevicesPerKind_OverridesOnlyItsKind()
    {
        var first = Kinds[0].Name;
        var options = SendCommand.Parse(["--connection", EventHubsEmulatorAccount.ConnectionString(5300), "--devices-per-kind", "7", "--" + first, "3"]);

        Assert.Equal(3, options.Devices[first]);
        Assert.All(Kinds.Skip(1), k => Assert.Equal(7, options.Devices[k.Name]));
    }

    [Fact]
    public void Parse_NoDeviceOption_GivesEveryKindTheDocumentedDefault()
    {
        var options = SendCommand.Parse(["--connection", EventHubsEmulatorAccount.ConnectionString(5300)]);

        Assert.All(Kinds, k => Assert.Equal(SendOptions.DefaultDevicesPerKind, options.Devices[k.Name]));
        Assert.Equal(Kinds[0].Hub, options.ForgedHub);
    }
}
