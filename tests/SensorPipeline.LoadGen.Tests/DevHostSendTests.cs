using System.Text.Json;
using SensorPipeline.Clients;
using SensorPipeline.LoadGen.Ledger;

namespace SensorPipeline.LoadGen.Tests;

/// <summary>loadgen against the real devhost process over either transport (AMQP with the official client, the default;
/// the REST send API), SAS checked by devhost, read back through devhost's peek endpoint.</summary>
public sealed class DevHostSendTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Theory]
    [InlineData("amqp")]
    [InlineData("rest")]
    public async Task Send_ToDevHost_EveryReadingStoredOnceInTheIngestionHub(string transport)
    {
        var app = Directory.CreateDirectory(_dir.File("app")).FullName; // no functions: only the emulator runs
        await using var devHost = await DevHostProcess.StartAsync(new DevHostStart
        {
            AppRoot = app, DataDirectory = _dir.File("data"), HubsFile = RepoLayout.Current.EventHubsConfig, Settings = ["EventHubs:Durability=None"],
        });
        var ledgerPath = _dir.File("ledger.json");
        var connection = EventHubsEmulatorAccount.ConnectionString(devHost.BaseAddress.Port);

        var (exit, output, errors) = await LoadGenProcess.RunAsync(TimeSpan.FromSeconds(60), "--transport", transport, "--connection", connection,
            "--weather", "4", "--seismic", "4", "--count", "2000", "--readings-per-event", "50", "--poison", "1", "--ledger", ledgerPath);

        Assert.True(exit == 0, $"exit {exit}\n{output}\n{errors}");
        using var client = new HttpClient { BaseAddress = devHost.BaseAddress, DefaultRequestHeaders = { { "X-DevHost-Admin", "1" } } }; // peek is an admin endpoint
        var readings = new List<Reading>();
        var undecodable = 0;
        for (var partition = 0; partition < 4; partition++)
        {
            using var events = JsonDocument.Parse(await client.GetStringAsync($"/ingestion/partitions/{partition}/events?from=0&max=1000"));
            foreach (var e in events.RootElement.EnumerateArray())
            {
                try
                {
                    readings.AddRange(ReadingBatch.Parser.ParseFrom(e.GetProperty("bodyBase64").GetBytesFromBase64()).Readings);
                }
                catch (Google.Protobuf.InvalidProtocolBufferException)
                {
                    undecodable++;
                }
            }
        }

        Assert.Equal(2000, readings.Count);
        Assert.Equal(1, undecodable);
        var ledger = await LedgerFile.ReadAsync(ledgerPath, CancellationToken.None);
        foreach (var device in readings.GroupBy(r => r.DeviceId))
        {
            Assert.Equal(Enumerable.Range(1, 250).Select(i => (ulong)i), device.Select(r => r.Sequence).Order());
            Assert.Equal(250UL, ledger.Devices.Single(d => d.Id == device.Key).HighestSequence);
        }
    }
}
