using System.Net;
using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using Microsoft.Azure.Cosmos;
using SensorPipeline.Core.DeadLetters;
using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Splitting;
using SensorPipeline.Protos;
using SensorPipeline.Stack;
using SourcePosition = SensorPipeline.Core.Readings.SourcePosition;

namespace SensorPipeline.Explorer.Tests;

/// <summary>One local stack for the explorer's browser tests (devhost with the real handler, the Cosmos DB emulator,
/// azurite): loadgen sends a known small data set (20 devices), the pipeline stores every device's state, and one dead
/// letter is written with the core's own DeadLetterWriter, as the splitter would for a rule since fixed.</summary>
public sealed class ExplorerFixture : IAsyncLifetime
{
    public const int Devices = 20;
    public const string Database = "explorer";

    /// <summary>The device of the dead letter: one of loadgen's (its default prefix).</summary>
    public const string LetterDevice = "dev-weather-0001";
    private readonly TempDirectory _dir = new("explorer-stack-");

    public LocalPipeline Pipeline { get; private set; } = null!;

    public CosmosClient Cosmos { get; private set; } = null!;

    /// <summary>The dead letter the re-drive test moves.</summary>
    public DeadLetter Letter { get; private set; } = null!;

    public Uri ExplorerUrl => new(Pipeline.DevHostUrl, "explorer");

    public async Task InitializeAsync()
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(5));
        Pipeline = await LocalPipeline.StartAsync(RepoLayout.Current, new StackOptions { DataDirectory = _dir.File("stack"), DatabaseName = Database }, timeout.Token);
        Cosmos = Pipeline.CreateCosmosClient();
        await SendAsync();
        var devices = Cosmos.GetContainer(Database, "devices");
        await Eventually.ValueAsync(() => CountAsync(devices), count => count == Devices, $"{Devices} device states in Cosmos DB",
            TimeSpan.FromMinutes(3), TimeSpan.FromMilliseconds(500));
        await WriteDeadLetterAsync();
    }

    private async Task SendAsync()
    {
        await using var loadgen = ChildProcess.Start(new ChildProcessOptions
        {
            Name = "loadgen",
            FileName = "dotnet",
            Arguments = [RepoLayout.Current.LoadGenDll, "--connection", Pipeline.EventHubConnection, "--weather", "10", "--seismic", "10",
                "--count", "200", "--readings-per-event", "10"],
        });
        await loadgen.WaitForExitAsync(TimeSpan.FromMinutes(2));
        Assert.True(loadgen.ExitCode == 0, $"loadgen exit {loadgen.ExitCode}\n{loadgen.StandardOutput}\n{loadgen.StandardError}");
    }

    private static async Task<int> CountAsync(Container container)
    {
        // Device states are GeoJSON Features; the container also holds the instances' pending-states marks.
        using var iterator = container.GetItemQueryIterator<int>("SELECT VALUE COUNT(1) FROM c WHERE c.type = 'Feature'");
        var count = 0;
        while (iterator.HasMoreResults)
        {
            count += (await iterator.ReadNextAsync()).Sum();
        }

        return count;
    }

    private async Task WriteDeadLetterAsync()
    {
        // One of loadgen's devices, observed an hour ago: re-driven, the reading is older than the device's state, which
        // stays (newer wins), so the map keeps its 20 devices whichever test runs first.
        var now = DateTimeOffset.UtcNow;
        var reading = new Reading
        {
            DeviceId = LetterDevice, Kind = SensorKind.Weather, Sequence = 1, ObservedAt = Timestamp.FromDateTimeOffset(now.AddHours(-1)),
            Location = new Location { Latitude = 48.85, Longitude = 2.35 }, Weather = new WeatherPayload { TemperatureC = 21 },
        };
        Letter = new DeadLetter(Splitter.Stage, DeadLetterReason.InvalidObservedAt, new SourcePosition("0", 7, now.ToUnixTimeMilliseconds()), 0,
            LetterDevice, reading.ToByteArray());
        using var stream = new MemoryStream(DeadLetterWriter.ToUtf8(Letter, now));
        using var response = await Cosmos.GetContainer(Database, "deadletters").UpsertItemStreamAsync(stream, new PartitionKey(Letter.Id));
        Assert.True(response.StatusCode is HttpStatusCode.Created or HttpStatusCode.OK, $"upsert: {response.StatusCode} {response.ErrorMessage}");
    }

    public async Task DisposeAsync()
    {
        Cosmos?.Dispose();
        if (Pipeline is not null)
        {
            await Pipeline.DisposeAsync();
        }

        _dir.Dispose();
    }
}
