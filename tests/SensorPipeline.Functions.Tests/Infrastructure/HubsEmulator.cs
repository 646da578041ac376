using Azure.Messaging.EventHubs.Consumer;
using SensorPipeline.Clients;
using SensorPipeline.Core.Splitting;
using SensorPipeline.Protos;

namespace SensorPipeline.Functions.Tests.Infrastructure;

/// <summary>One envelope as it arrived on a processor hub: the partition it landed on and the envelope decoded.</summary>
internal sealed record LandedEnvelope(string PartitionId, ForwardEnvelope Envelope);

/// <summary>
/// devhost serving the repository's Event Hubs namespace only (no function app): where the splitter under test sends,
/// read back with the official SDK's consumer. Started on its port again after a stop, on the same data.
/// </summary>
internal sealed class HubsEmulator : IAsyncDisposable
{
    private readonly TempDirectory _files;
    private DevHostProcess? _devHost;

    private HubsEmulator(TempDirectory files, int port)
    {
        _files = files;
        Port = port;
    }

    public int Port { get; }

    /// <summary>The emulator's connection string, the handler's <c>EventHubConnection</c>.</summary>
    public string ConnectionString => EventHubsEmulatorAccount.ConnectionString(Port);

    public static async Task<HubsEmulator> StartAsync()
    {
        var hubs = new HubsEmulator(new TempDirectory("hubs"), LoopbackPort.GetFree());
        try
        {
            await hubs.RestartAsync();
            return hubs;
        }
        catch
        {
            await hubs.DisposeAsync();
            throw;
        }
    }

    /// <summary>Stops devhost (kill): sends to it fail until <see cref="RestartAsync"/>.</summary>
    public async Task StopAsync()
    {
        if (_devHost is not null)
        {
            await _devHost.DisposeAsync();
            _devHost = null;
        }
    }

    /// <summary>Starts devhost on <see cref="Port"/> and its data (no host.json in the app root: Event Hubs only).</summary>
    public async Task RestartAsync()
    {
        await StopAsync();
        _devHost = await DevHostProcess.StartAsync(new DevHostStart
        {
            AppRoot = _files.Path,
            DataDirectory = Path.Combine(_files.Path, "data"),
            HubsFile = Path.Combine(RepoLayout.Current.Root, "eventhubs.emulator.json"),
            Port = Port,
        });
    }

    /// <summary>
    /// Reads <paramref name="hub"/> from its start until the envelopes holding <paramref name="readings"/> readings of
    /// <paramref name="devices"/> have arrived (other tests' envelopes are skipped), or fails after <paramref name="timeout"/>.
    /// </summary>
    public async Task<IReadOnlyList<LandedEnvelope>> ReadAsync(string hub, IReadOnlySet<string> devices, int readings, TimeSpan timeout)
    {
        await using var consumer = new EventHubConsumerClient(EventHubConsumerClient.DefaultConsumerGroupName, ConnectionString, hub);
        using var cancellation = new CancellationTokenSource(timeout);
        var landed = new List<LandedEnvelope>();
        var seen = 0;
        try
        {
            await foreach (var item in consumer.ReadEventsAsync(startReadingAtEarliestEvent: true, cancellationToken: cancellation.Token))
            {
                var envelope = Decode(item.Data.EventBody.ToArray());
                var ours = envelope.Readings.Count(r => devices.Contains(r.Reading.DeviceId));
                if (ours == 0)
                {
                    continue;
                }

                landed.Add(new LandedEnvelope(item.Partition.PartitionId, envelope));
                seen += ours;
                if (seen >= readings)
                {
                    return landed;
                }
            }
        }
        catch (OperationCanceledException) when (cancellation.IsCancellationRequested)
        {
        }

        throw new Xunit.Sdk.XunitException($"{seen} of {readings} readings of the test's devices arrived on '{hub}' within {timeout.TotalSeconds:N0} s");
    }

    /// <summary>An envelope as the processors read it: its protobuf bytes, checked to fit one event.</summary>
    public static ForwardEnvelope Decode(byte[] body)
    {
        Assert.InRange(body.Length, 1, EnvelopeBudget.MaxEnvelopeBytes);
        return ForwardEnvelope.Parser.ParseFrom(body);
    }

    public async ValueTask DisposeAsync()
    {
        await StopAsync();
        _files.Dispose();
    }
}
