using System.Net.Http.Headers;
using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using SensorPipeline.Core.Splitting;
using SensorPipeline.Protos;
using SourcePosition = SensorPipeline.Core.Readings.SourcePosition;

namespace SensorPipeline.EndToEnd.Tests;

/// <summary>
/// The whole local stack (<see cref="LocalPipeline"/>) over a fresh temporary data directory, with anonymous sends
/// allowed so a test can post raw event bodies to any hub or partition; stops the stack and deletes the directory on
/// dispose. The start-up every raw-send test shares, with what they all send (weather envelopes as the splitter writes
/// them) and read back (the documents of the stack's database).
/// </summary>
internal sealed class RawSendPipeline : IAsyncDisposable
{
    private readonly string _data;

    private readonly CosmosClient _store;

    private RawSendPipeline(LocalPipeline pipeline, string data, string database)
    {
        Pipeline = pipeline;
        _data = data;
        Http = new HttpClient { BaseAddress = pipeline.DevHostUrl };
        _store = pipeline.CreateCosmosClient();
        Database = _store.GetDatabase(database);
    }

    public LocalPipeline Pipeline { get; }

    /// <summary>The database the handler writes to, through the one client set-up.</summary>
    public Database Database { get; }

    /// <summary>A client on devhost's address.</summary>
    public HttpClient Http { get; }

    /// <summary>Starts the stack writing to database <paramref name="database"/>.</summary>
    public static Task<RawSendPipeline> StartAsync(string database, CancellationToken cancellationToken) =>
        StartAsync(database, null, [], cancellationToken);

    /// <summary>
    /// Starts the stack writing to database <paramref name="database"/>, with separate Functions-host instances when
    /// <paramref name="instances"/> is set (<see cref="StackOptions.Instances"/>; 0 starts none, for the test to start its own
    /// through <see cref="LocalPipeline.Fleet"/>), each given <paramref name="instanceSettings"/>.
    /// </summary>
    public static async Task<RawSendPipeline> StartAsync(string database, InstanceCount? instances, IReadOnlyList<string> instanceSettings, CancellationToken cancellationToken)
    {
        var data = Path.Combine(Path.GetTempPath(), "sensorpipeline-" + database + "-" + Guid.NewGuid().ToString("N"));
        try
        {
            var pipeline = await LocalPipeline.StartAsync(RepoLayout.Discover(), new StackOptions
            {
                DataDirectory = data,
                DatabaseName = database,
                Environment = new Dictionary<string, string> { ["EventHubs__Sas__AllowAnonymous"] = "true" },
                Instances = instances,
                InstanceSettings = instanceSettings,
            }, cancellationToken);
            return new RawSendPipeline(pipeline, data, database);
        }
        catch
        {
            DeleteData(data);
            throw;
        }
    }

    /// <summary>Posts one event body to <paramref name="path"/> (e.g. <c>ingestion/messages</c>), asserts 201 and
    /// returns the event's sequence number.</summary>
    public async Task<long> SendAsync(string path, byte[] body, CancellationToken cancellationToken)
    {
        using var content = new ByteArrayContent(body);
        content.Headers.ContentType = new MediaTypeHeaderValue("application/octet-stream");
        using var response = await Http.PostAsync(new Uri(path, UriKind.Relative), content, cancellationToken);
        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        return long.Parse(response.Headers.GetValues("X-First-Sequence-Number").Single(), CultureInfo.InvariantCulture);
    }

    /// <summary>Waits until a document is stored (bounded by <paramref name="timeout"/>, 2 minutes when null), and returns it.</summary>
    public async Task<JsonElement> WaitForDocumentAsync(string container, string id, string partitionKey, CancellationToken cancellationToken, TimeSpan? timeout = null)
    {
        var stored = await Eventually.ValueAsync(
            async token =>
            {
                using var response = await Database.GetContainer(container).ReadItemStreamAsync(id, new PartitionKey(partitionKey), cancellationToken: token);
                if (response.StatusCode != HttpStatusCode.OK)
                {
                    return (JsonElement?)null;
                }

                using var document = await JsonDocument.ParseAsync(response.Content, cancellationToken: token);
                return document.RootElement.Clone();
            },
            document => document is not null, $"{container}/{id} stored", timeout ?? TimeSpan.FromMinutes(2), TimeSpan.FromMilliseconds(250), cancellationToken: cancellationToken);
        return stored!.Value;
    }

    /// <summary>A device id no other test or run shares: <paramref name="prefix"/> (what the device is for) and a random part.</summary>
    public static string NewDeviceId(string prefix) => prefix + Guid.NewGuid().ToString("N")[..8];

    /// <summary>A weather reading as a simulated device sends it; the temperature and longitude tell readings apart.</summary>
    public static Reading Weather(string device, ulong sequence, DateTimeOffset observed, double temperatureC = 12.5, double longitude = -122.3) => new()
    {
        DeviceId = device,
        Kind = SensorKind.Weather,
        Sequence = sequence,
        ObservedAt = Timestamp.FromDateTimeOffset(observed),
        Location = new Location { Latitude = 47.6, Longitude = longitude, AltitudeM = 56 },
        Weather = new WeatherPayload { TemperatureC = temperatureC, RelativeHumidityPct = 80, PressureHpa = 1013, WindSpeedMps = 4, WindDirectionDeg = 270, RainMmph = 0 },
    };

    /// <summary>One weather envelope as the splitter writes it, holding every one of <paramref name="readings"/>, its
    /// source event enqueued at <paramref name="sourceEnqueuedUnixMs"/> (now when null).</summary>
    public static byte[] WeatherEnvelope(IReadOnlyCollection<Reading> readings, long? sourceEnqueuedUnixMs = null)
    {
        var batch = new ReadingBatch();
        batch.Readings.AddRange(readings);
        var now = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();
        var result = new Splitter().Split([new InputEvent(batch.ToByteArray(), new SourcePosition("0", 1, sourceEnqueuedUnixMs ?? now))], now);
        Assert.Equal(readings.Count, result.Of(SensorKind.Weather).Readings);
        return Assert.Single(result.Of(SensorKind.Weather).Envelopes).ToArray();
    }

    public async ValueTask DisposeAsync()
    {
        _store.Dispose();
        Http.Dispose();
        await Pipeline.DisposeAsync();
        DeleteData(_data);
    }

    private static void DeleteData(string data)
    {
        try
        {
            Directory.Delete(data, recursive: true);
        }
        catch (DirectoryNotFoundException)
        {
            // Never created: the stack failed before writing anything.
        }
        catch (IOException)
        {
            // A log file still held by a just-stopped child: the temp folder is cleaned by the OS later.
        }
    }
}
