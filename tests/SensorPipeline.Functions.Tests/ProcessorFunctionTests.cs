using System.Text.Json;
using Google.Protobuf;
using SensorPipeline.Protos;

namespace SensorPipeline.Functions.Tests;

[Collection(PipelineGroup.Name)]
public sealed class ProcessorFunctionTests(PipelineFixture fixture)
{
    private IHandlerUnderTest Handler => fixture.Handler;

    private StoreReader Store => fixture.Store;

    [Fact]
    public async Task WeatherProcessor_FreshReadings_WritesGeoJsonFeaturesAndTheDeviceState()
    {
        var (handler, store) = (fixture.Handler, fixture.Store);
        var device = Builders.Device("ws");
        var ingestion = PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(device, 1, lat: 10.5, lon: 20.25), Builders.Weather(device, 2, lat: 11.5, lon: 21.25)));
        var envelope = PipelineDriver.WeatherEnvelope(ingestion);

        var answer = await PipelineDriver.ProcessAsync(handler, "WeatherProcessor", [envelope]);

        Assert.Equal(HttpStatusCode.OK, answer.Status);
        Assert.Contains("live 2, archived 0", answer.LogText, StringComparison.Ordinal);
        var feature = await ReadAsync(store, "readings", Builders.ReadingId(device, 1), device);
        Assert.Equal("Feature", feature.GetProperty("type").GetString());
        Assert.Equal(device, feature.GetProperty("deviceId").GetString());
        Assert.Equal("Point", feature.GetProperty("geometry").GetProperty("type").GetString());
        Assert.Equal([20.25, 10.5, 56.5], feature.GetProperty("geometry").GetProperty("coordinates").EnumerateArray().Select(c => c.GetDouble()));
        var properties = feature.GetProperty("properties");
        Assert.Equal("weather", properties.GetProperty("kind").GetString());
        Assert.Equal(1UL, properties.GetProperty("sequence").GetUInt64());
        Assert.Equal(12.5, properties.GetProperty("temperatureC").GetDouble());
        Assert.Equal("0", properties.GetProperty("sourcePartition").GetString());
        Assert.Equal(ingestion.SequenceNumber, properties.GetProperty("sourceSequenceNumber").GetInt64());
        Assert.False(properties.TryGetProperty("staleByMs", out _));
        Assert.NotNull(await store.ReadAsync("readings", Builders.ReadingId(device, 2), device));

        var state = await ReadAsync(store, "devices", device, device);
        Assert.Equal(2UL, state.GetProperty("properties").GetProperty("sequence").GetUInt64());
        Assert.Equal([21.25, 11.5, 56.5], state.GetProperty("geometry").GetProperty("coordinates").EnumerateArray().Select(c => c.GetDouble()));
        Assert.Equal(Builders.ReadingId(device, 2), state.GetProperty("properties").GetProperty("readingId").GetString());
    }

    [Fact]
    public async Task WeatherProcessor_SameBatchRedelivered_StoresNoDuplicates()
    {
        var (handler, store) = (fixture.Handler, fixture.Store);
        var device = Builders.Device("ws");
        var envelope = PipelineDriver.WeatherEnvelope(
            PipelineDriver.Ingestion(Builders.Batch([.. Enumerable.Range(1, 5).Select(i => Builders.Weather(device, (ulong)i))])));

        var first = await PipelineDriver.ProcessAsync(handler, "WeatherProcessor", [envelope]);
        var again = await PipelineDriver.ProcessAsync(handler, "WeatherProcessor", [envelope], retryCount: 1);

        Assert.Equal(HttpStatusCode.OK, first.Status);
        Assert.Equal(HttpStatusCode.OK, again.Status);
        Assert.Contains("device states 1 pending", again.LogText, StringComparison.Ordinal);
        var ids = await store.IdsAsync("readings", device);
        Assert.Equal(Enumerable.Range(1, 5).Select(i => Builders.ReadingId(device, (ulong)i)).Order(), ids.Order());
        Assert.Equal(5UL, (await ReadAsync(store, "devices", device, device)).GetProperty("properties").GetProperty("sequence").GetUInt64());
    }

    [Theory]
    [InlineData("")]
    [InlineData(",\"version\":17")]
    public async Task WeatherProcessor_StoredDeviceWithoutAStringVersion_TheGuardedWriteReplacesIt(string version)
    {
        // A device document written by something else (an older release, a hand fix): no version, or not a string.
        var (handler, store) = (fixture.Handler, fixture.Store);
        var device = Builders.Device("nover");
        await store.UpsertAsync("devices", device, $$"""{"id":"{{device}}","deviceId":"{{device}}","type":"Feature","geometry":null,"properties":{"note":"hand-made"}{{version}}}""");
        var envelope = PipelineDriver.WeatherEnvelope(PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(device, 3))));

        var answer = await PipelineDriver.ProcessAsync(handler, "WeatherProcessor", [envelope]);

        Assert.Equal(HttpStatusCode.OK, answer.Status);
        Assert.Contains("device states 1 pending", answer.LogText, StringComparison.Ordinal);
        var state = await ReadAsync(store, "devices", device, device);
        Assert.Equal(Builders.ReadingId(device, 3), state.GetProperty("properties").GetProperty("readingId").GetString());
        // The version key orders by observed time, then sequence: it ends with the fixed-width sequence.
        Assert.EndsWith(".00000000000000000003", state.GetProperty("version").GetString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task WeatherProcessor_OlderBatchAfterNewer_DevicesKeepsTheNewest()
    {
        var (handler, store) = (fixture.Handler, fixture.Store);
        var device = Builders.Device("ws");
        var newer = PipelineDriver.WeatherEnvelope(PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(device, 7), Builders.Weather(device, 8))));
        var older = PipelineDriver.WeatherEnvelope(PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(device, 3), Builders.Weather(device, 4))));

        Assert.Equal(HttpStatusCode.OK, (await PipelineDriver.ProcessAsync(handler, "WeatherProcessor", [newer], partitionId: "0")).Status);
        Assert.Equal(HttpStatusCode.OK, (await PipelineDriver.ProcessAsync(handler, "WeatherProcessor", [older], partitionId: "1")).Status);

        var state = await ReadAsync(store, "devices", device, device);
        Assert.Equal(8UL, state.GetProperty("properties").GetProperty("sequence").GetUInt64());
        Assert.Equal(new ulong[] { 3, 4, 7, 8 }.Select(s => Builders.ReadingId(device, s)).Order(), (await store.IdsAsync("readings", device)).Order());

        // A newer one then patches the stored state: version, geometry and properties all move together.
        var newest = PipelineDriver.WeatherEnvelope(PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(device, 9, lat: -33.5, lon: 151.25))));
        Assert.Equal(HttpStatusCode.OK, (await PipelineDriver.ProcessAsync(handler, "WeatherProcessor", [newest])).Status);
        var patched = await ReadAsync(store, "devices", device, device);
        Assert.Equal(9UL, patched.GetProperty("properties").GetProperty("sequence").GetUInt64());
        Assert.Equal(Builders.ReadingId(device, 9), patched.GetProperty("properties").GetProperty("readingId").GetString());
        Assert.Equal([151.25, -33.5, 56.5], patched.GetProperty("geometry").GetProperty("coordinates").EnumerateArray().Select(c => c.GetDouble()));
        Assert.EndsWith(".00000000000000000009", patched.GetProperty("version").GetString(), StringComparison.Ordinal);
        Assert.Equal(device, patched.GetProperty("deviceId").GetString());
    }

    [Fact]
    public async Task WeatherProcessor_ConcurrentBatchesForOneDevice_DevicesHoldsTheNewest()
    {
        var (handler, store) = (fixture.Handler, fixture.Store);
        var device = Builders.Device("ws");
        const int Batches = 24;
        var envelopes = new List<HubEvent>();
        foreach (var sequence in Enumerable.Range(1, Batches).Reverse())
        {
            envelopes.Add(PipelineDriver.WeatherEnvelope(PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(device, (ulong)sequence)))));
        }

        // All at once, on different partitions, newest first: every older write races a newer one.
        var answers = await Task.WhenAll(envelopes.Select((e, i) => PipelineDriver.ProcessAsync(handler, "WeatherProcessor", [e], partitionId: (i % 4).ToString(System.Globalization.CultureInfo.InvariantCulture))));

        Assert.All(answers, a => Assert.True(a.Status == HttpStatusCode.OK, $"{a.Status}: {a.LogText}"));
        var state = await ReadAsync(store, "devices", device, device);
        Assert.Equal((ulong)Batches, state.GetProperty("properties").GetProperty("sequence").GetUInt64());
        Assert.Equal(Batches, (await store.IdsAsync("readings", device)).Count);
    }

    [Fact]
    public async Task WeatherProcessor_StaleReadings_AreArchivedCountedAndKeptOutOfTheLiveView()
    {
        var device = Builders.Device("ws");
        var envelope = PipelineDriver.WeatherEnvelope(
            PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(device, 1)), age: TimeSpan.FromMinutes(10)));

        var answer = await PipelineDriver.ProcessAsync(Handler, "WeatherProcessor", [envelope]);

        Assert.Equal(HttpStatusCode.OK, answer.Status);
        Assert.Contains("live 0, archived 1", answer.LogText, StringComparison.Ordinal);
        var archived = await ReadAsync("archive", Builders.ReadingId(device, 1), device);
        Assert.InRange(archived.GetProperty("properties").GetProperty("staleByMs").GetInt64(), 4 * 60_000, 6 * 60_000);
        Assert.Null(await Store.ReadAsync("readings", Builders.ReadingId(device, 1), device));
        Assert.Null(await Store.ReadAsync("devices", device, device));
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public async Task WeatherProcessor_RedeliveryAcrossTheMaxAge_EndsInOneContainerLiveWins(bool staleCopyFirst)
    {
        // One reading sent twice (a producer retry) with enqueued times either side of the 5-minute max age.
        var device = Builders.Device("ws");
        var body = Builders.Batch(Builders.Weather(device, 1));
        var stale = PipelineDriver.WeatherEnvelope(PipelineDriver.Ingestion(body, age: TimeSpan.FromMinutes(5) + TimeSpan.FromSeconds(10)));
        var fresh = PipelineDriver.WeatherEnvelope(PipelineDriver.Ingestion(body, age: TimeSpan.FromMinutes(5) - TimeSpan.FromSeconds(10)));

        var answers = new List<InvocationAnswer>();
        foreach (var envelope in staleCopyFirst ? new[] { stale, fresh } : [fresh, stale])
        {
            answers.Add(await PipelineDriver.ProcessAsync(Handler, "WeatherProcessor", [envelope]));
            Assert.Equal(HttpStatusCode.OK, answers[^1].Status);
        }

        // Processed second, a stale copy finds the reading live and reports itself redundant instead of archived.
        if (!staleCopyFirst)
        {
            Assert.Contains("archived 0,", answers[1].LogText, StringComparison.Ordinal);
            Assert.Contains("stale copies of live readings 1", answers[1].LogText, StringComparison.Ordinal);
        }

        Assert.NotNull(await Store.ReadAsync("readings", Builders.ReadingId(device, 1), device));
        Assert.Null(await Store.ReadAsync("archive", Builders.ReadingId(device, 1), device));
    }

    [Fact]
    public Task WeatherProcessor_BatchRedeliveredStaleAfterItsReadingsWereWritten_DevicesGetTheNewestLiveReading()
    {
        var (handler, store) = (fixture.Handler, fixture.Store);
        return BatchRedeliveredStaleAfterItsReadingsWereWrittenAsync(handler, store); // in bulk; StoreFaultTests runs it with point writes
    }

    /// <summary>
    /// An instance wrote a batch's readings live and was killed before the device writes; after the ownership expiry
    /// another instance gets the batch again, now past the max age. Its stale readings that the live/archive check finds live
    /// give their devices the state the first attempt never wrote; one it finds only archived never does.
    /// </summary>
    internal static async Task BatchRedeliveredStaleAfterItsReadingsWereWrittenAsync(IHandlerUnderTest handler, StoreReader store)
    {
        var d = Builders.Device("ws");
        var e = Builders.Device("ws");
        var firstAttempt = PipelineDriver.WeatherEnvelope(PipelineDriver.Ingestion(
            Builders.Batch(Builders.Weather(d, 1), Builders.Weather(d, 2), Builders.Weather(d, 3, lat: 9.5), Builders.Weather(e, 2)),
            age: TimeSpan.FromMinutes(4))); // a minute of margin: the splitter hop before it must not make it stale on a slow machine
        Assert.Contains("live 4,", (await PipelineDriver.ProcessAsync(handler, "WeatherProcessor", [firstAttempt])).LogText, StringComparison.Ordinal);
        var liveState = await ReadAsync(store, "devices", d, d);
        await store.DeleteAsync("devices", d, d); // the kill: readings stored, devices never written
        await store.DeleteAsync("devices", e, e);

        // The redelivery also holds d's reading 4, which the killed attempt had not written yet, and a fresh reading of e
        // older than its live stale one: one write per device, newer wins in the handler before it.
        var redelivered = PipelineDriver.WeatherEnvelope(PipelineDriver.Ingestion(
            Builders.Batch(Builders.Weather(d, 1), Builders.Weather(d, 2), Builders.Weather(d, 3, lat: 9.5), Builders.Weather(d, 4), Builders.Weather(e, 2)),
            age: TimeSpan.FromMinutes(5) + TimeSpan.FromSeconds(10)));
        var fresh = PipelineDriver.WeatherEnvelope(PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(e, 1))));
        var answer = await PipelineDriver.ProcessAsync(handler, "WeatherProcessor", [redelivered, fresh], partitionId: "3");

        Assert.Equal(HttpStatusCode.OK, answer.Status);
        Assert.Contains("live 1, archived 1, device states 2 pending", answer.LogText, StringComparison.Ordinal);
        Assert.Contains("stale copies of live readings 4", answer.LogText, StringComparison.Ordinal);
        var state = await ReadAsync(store, "devices", d, d);
        Assert.Equal(Builders.ReadingId(d, 3), state.GetProperty("properties").GetProperty("readingId").GetString());
        Assert.Equal(liveState.GetProperty("version").GetString(), state.GetProperty("version").GetString());
        Assert.Equal(liveState.GetProperty("geometry").GetRawText(), state.GetProperty("geometry").GetRawText());
        Assert.Equal(WithoutEnqueuedAt(liveState), WithoutEnqueuedAt(state)); // the ingestion events differ, nothing else
        Assert.Equal(2UL, (await ReadAsync(store, "devices", e, e)).GetProperty("properties").GetProperty("sequence").GetUInt64());
        Assert.Equal(new ulong[] { 1, 2, 3 }.Select(s => Builders.ReadingId(d, s)).Order(), (await store.IdsAsync("readings", d)).Order());
        Assert.Equal([Builders.ReadingId(d, 4)], await store.IdsAsync("archive", d));
        Assert.Empty(await store.IdsAsync("archive", e));

        static string WithoutEnqueuedAt(JsonElement device) =>
            string.Join(",", device.GetProperty("properties").EnumerateObject().Where(p => p.Name != "enqueuedAt").Select(p => p.ToString()));
    }

    [Fact]
    public async Task SeismicProcessor_WeatherEnvelopeOnTheSeismicHub_IsDeadLetteredWhole()
    {
        var envelope = PipelineDriver.WeatherEnvelope(PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(Builders.Device("ws"), 1))));

        var answer = await PipelineDriver.ProcessAsync(Handler, "SeismicProcessor", [envelope], partitionId: "2");

        Assert.Equal(HttpStatusCode.OK, answer.Status);
        var id = $"seismic-processor:2:{envelope.SequenceNumber}";
        var letter = await Store.ReadAsync("deadletters", id, id) ?? throw new Xunit.Sdk.XunitException("dead letter not stored");
        Assert.Equal("payload-mismatch", letter.GetProperty("reason").GetString());
        Assert.Equal(envelope.Body, letter.GetProperty("payloadBase64").GetBytesFromBase64());
    }

    [Fact]
    public async Task SeismicProcessor_UndecodableEnvelope_IsDeadLetteredAndTheRestWritten()
    {
        var device = Builders.Device("sm");
        var good = PipelineDriver.Envelope(SensorKind.Seismic, PipelineDriver.Ingestion(Builders.Batch(Builders.Seismic(device, 4))));
        var poison = new HubEvent([0x0A, 0xFF], PipelineDriver.NextSequence(), DateTimeOffset.UtcNow);

        var answer = await PipelineDriver.ProcessAsync(Handler, "SeismicProcessor", [poison, good]);

        Assert.Equal(HttpStatusCode.OK, answer.Status);
        Assert.NotNull(await Store.ReadAsync("readings", Builders.ReadingId(device, 4), device));
        var id = $"seismic-processor:0:{poison.SequenceNumber}";
        Assert.Equal("undecodable", (await Store.ReadAsync("deadletters", id, id))?.GetProperty("reason").GetString());
    }

    [Fact]
    public async Task WeatherProcessor_IngestionBatchBesideAnEnvelope_BatchDeadLetteredEnvelopeStored()
    {
        // Envelopes travel as their protobuf bytes with no marker: a body that parses as protobuf but is no envelope
        // (an ingestion batch sent to the wrong hub) is dead-lettered whole, and the envelope beside it is stored.
        var device = Builders.Device("ws");
        var envelope = PipelineDriver.WeatherEnvelope(PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(device, 3))));
        var rawEvent = new HubEvent(Builders.Batch(Builders.Weather(device, 1)), PipelineDriver.NextSequence(), DateTimeOffset.UtcNow);

        var answer = await PipelineDriver.ProcessAsync(Handler, "WeatherProcessor", [rawEvent, envelope]);

        Assert.Equal(HttpStatusCode.OK, answer.Status);
        Assert.Equal(3, (await ReadAsync("readings", Builders.ReadingId(device, 3), device)).GetProperty("properties").GetProperty("sequence").GetInt64());
        Assert.Null(await Store.ReadAsync("readings", Builders.ReadingId(device, 1), device));
        var letterId = $"weather-processor:0:{rawEvent.SequenceNumber}";
        Assert.Equal("undecodable", (await Store.ReadAsync("deadletters", letterId, letterId))?.GetProperty("reason").GetString());
    }

    private static async Task<JsonElement> ReadAsync(StoreReader store, string container, string id, string partitionKey) =>
        await store.ReadAsync(container, id, partitionKey) ?? throw new Xunit.Sdk.XunitException($"{container}/{id} not stored");

    private Task<JsonElement> ReadAsync(string container, string id, string partitionKey) => ReadAsync(Store, container, id, partitionKey);
}
