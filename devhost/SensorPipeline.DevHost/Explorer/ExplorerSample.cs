using Google.Protobuf;
using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Splitting;
using SensorPipeline.Devices;
using SensorPipeline.Protos;

namespace SensorPipeline.DevHost.Explorer;

/// <summary>The explorer's sample batch: a <c>ReadingBatch</c> of loadgen's simulated devices (<see cref="DeviceFleet"/>,
/// ids <c>explorer-sample-{kind}-0001</c>…). One fleet lives as long as devhost, so each device's sequence goes on from
/// one sample to the next and its position wanders, as in a load run. A sample of N readings holds the next reading of
/// the fleet's first N devices, whose kinds take turns in the catalog's order: a sample holds every kind of
/// sensor-kinds.json, so it needs at least one reading per kind.</summary>
public sealed class ExplorerSample
{
    /// <summary>The device ids' prefix.</summary>
    public const string DevicePrefix = "explorer-sample";

    /// <summary>The seed of the devices' values: the same devices, places and values in every devhost run.</summary>
    public const int Seed = 1;

    /// <summary>Most readings a sample holds: the readings per envelope the pipeline forwards.</summary>
    public const int MaxReadings = EnvelopeBudget.MaxReadingsPerEnvelope;

    private readonly DeviceFleet _fleet;
    private readonly Lock _gate = new();

    public ExplorerSample() => _fleet = NewFleet();

    /// <summary>A fleet as the explorer's: enough devices of every kind for the largest sample, with its seed and prefix.</summary>
    public static DeviceFleet NewFleet()
    {
        var kinds = SensorKindCatalog.Default.All.Count;
        return new DeviceFleet([.. Enumerable.Repeat((MaxReadings + kinds - 1) / kinds, kinds)], Seed, DevicePrefix);
    }

    /// <summary>Fewest readings a sample holds: one per kind of the catalog.</summary>
    public static int MinReadings => SensorKindCatalog.Default.All.Count;

    /// <summary>The next sample of <paramref name="readings"/> readings, observed at <paramref name="now"/>.</summary>
    public byte[] Next(int readings, DateTimeOffset now)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(readings, MinReadings);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(readings, MaxReadings);
        var batch = new ReadingBatch();
        lock (_gate)
        {
            // The simulated devices are not thread-safe; two sends at once take turns.
            for (var i = 0; i < readings; i++)
            {
                batch.Readings.Add(_fleet[i].Next(now));
            }
        }

        return batch.ToByteArray();
    }
}
