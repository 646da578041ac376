using System.Security.Cryptography;
using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Splitting;

namespace SensorPipeline.Functions.Tests;

/// <summary>
/// Poison versus systemic, decided by evidence, against the real handler and stand-in with <see cref="FaultProxy"/>
/// giving the store answers the stand-in never gives. Each test uses its own partition id, so the handler's attempt
/// counts (kept per function and partition) never mix.
/// </summary>
[Collection(FaultGroup.Name)]
public sealed class PoisonIsolationTests(FaultFixture fixture)
{
    [Fact]
    public async Task WeatherProcessor_OneDevicesDocumentsRefused403_RejectedByStoreOnTheFirstAttemptTheRestWritten()
    {
        var (good1, bad, good2) = (Builders.Device("iso-a"), Builders.Device("iso-poison"), Builders.Device("iso-b"));
        var envelopes = new[]
        {
            PipelineDriver.WeatherEnvelope(PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(good1, 1)))),
            PipelineDriver.WeatherEnvelope(PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(bad, 1)))),
            PipelineDriver.WeatherEnvelope(PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(good2, 1)))),
        };
        // Refused on every attempt with a status that could mean the store (403), but only this device's documents: the
        // container takes a known-good write meanwhile, so the refusal is the document's.
        using (fixture.Proxy.AnswerWritesContaining(bad, HttpStatusCode.Forbidden, 0))
        {
            var answer = await PipelineDriver.ProcessAsync(fixture.Handler, "WeatherProcessor", envelopes, partitionId: "21", retryCount: 0);

            Assert.Equal(HttpStatusCode.OK, answer.Status);
            Assert.NotNull(await fixture.Store.ReadAsync("readings", Builders.ReadingId(good1, 1), good1));
            Assert.NotNull(await fixture.Store.ReadAsync("readings", Builders.ReadingId(good2, 1), good2));
            Assert.NotNull(await fixture.Store.ReadAsync("devices", good2, good2));
            Assert.Null(await fixture.Store.ReadAsync("readings", Builders.ReadingId(bad, 1), bad));
            var id = $"weather-processor-store:21:{envelopes[1].SequenceNumber}:0"; // the reading's place: its envelope, index 0 in it
            var letter = await fixture.Store.ReadAsync("deadletters", id, id) ?? throw new Xunit.Sdk.XunitException("the refused reading is not dead-lettered");
            Assert.Equal("rejected-by-store", letter.GetProperty("reason").GetString());
            Assert.Equal(bad, letter.GetProperty("deviceId").GetString());
            Assert.Contains("403", letter.GetProperty("detail").GetString(), StringComparison.Ordinal);
            // Decided on the first attempt: nothing was counted, and the canary left nothing behind.
            var ledgerId = "attempts:WeatherProcessor:21";
            Assert.Null(await fixture.Store.ReadAsync("deadletters", ledgerId, ledgerId));
            Assert.Null(await fixture.Store.ReadAsync("readings", "store-canary", "store-canary.partition"));
        }
    }

    [Fact]
    public async Task WeatherProcessor_StoreRefusesEverything_SystemicNothingDeadLetteredAndTheBatchStoredOnceFixed()
    {
        var devices = new[] { Builders.Device("sys-a"), Builders.Device("sys-b"), Builders.Device("sys-c") };
        var envelopes = new List<HubEvent>();
        foreach (var device in devices)
        {
            envelopes.Add(PipelineDriver.WeatherEnvelope(PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(device, 1)))));
        }

        // A role assignment still propagating: 403 for every document write.
        using (fixture.Proxy.AnswerWritesContaining("", HttpStatusCode.Forbidden, 5301))
        {
            // Systemic from the first attempt: the container refuses the known-good write too.
            for (var attempt = 0; attempt < 4; attempt++)
            {
                var answer = await PipelineDriver.ProcessAsync(fixture.Handler, "WeatherProcessor", envelopes, partitionId: "22", retryCount: attempt);
                Assert.Equal(HttpStatusCode.InternalServerError, answer.Status);
                Assert.Contains("Systemic", answer.LogText, StringComparison.Ordinal);
            }

            foreach (var envelope in envelopes)
            {
                var id = $"weather-processor:22:{envelope.SequenceNumber}";
                Assert.Null(await fixture.Store.ReadAsync("deadletters", id, id));
            }
        }

        // Roles propagated: the retry the host keeps making now stores everything.
        var fixedAnswer = await PipelineDriver.ProcessAsync(fixture.Handler, "WeatherProcessor", envelopes, partitionId: "22", retryCount: 4);
        Assert.Equal(HttpStatusCode.OK, fixedAnswer.Status);
        foreach (var device in devices)
        {
            Assert.NotNull(await fixture.Store.ReadAsync("readings", Builders.ReadingId(device, 1), device));
        }
    }

    [Fact]
    public async Task WeatherProcessor_StoreRefusesEverything_TheSystemicFailureLoggedOnce()
    {
        var envelope = PipelineDriver.WeatherEnvelope(PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(Builders.Device("sys-log"), 1))));
        var before = fixture.Handler.Output.Length;
        using (fixture.Proxy.AnswerWritesContaining("", HttpStatusCode.Forbidden, 5301))
        {
            var answer = await PipelineDriver.ProcessAsync(fixture.Handler, "WeatherProcessor", [envelope], partitionId: "25", retryCount: 0);
            Assert.Equal(HttpStatusCode.InternalServerError, answer.Status);
        }

        // The log is written in order: once a later invocation's failure is printed, everything this one logged is too.
        var marker = await LoggedMarkerAsync();
        var logged = fixture.Handler.Output[before..];
        logged = logged[..logged.LastIndexOf("fail: ", logged.IndexOf(marker, StringComparison.Ordinal), StringComparison.Ordinal)];
        Assert.Equal(1, System.Text.RegularExpressions.Regex.Count(logged, "^fail: ", System.Text.RegularExpressions.RegexOptions.Multiline));
        Assert.Contains("partition 25", logged, StringComparison.Ordinal);
        Assert.Contains(envelope.SequenceNumber.ToString(System.Globalization.CultureInfo.InvariantCulture), logged, StringComparison.Ordinal);
    }

    /// <summary>Invokes the handler with a request it refuses (one sequence number short) and waits for its error in the log.</summary>
    private async Task<string> LoggedMarkerAsync()
    {
        var count = Random.Shared.Next(1000, 9000);
        var events = Enumerable.Range(0, count).Select(i => new HubEvent([1], i, DateTimeOffset.UtcNow)).ToList();
        var body = System.Text.Json.Nodes.JsonNode.Parse(HostRequest.Build("WeatherProcessor", "weather", "weather-processor", "26", events))!;
        body["Metadata"]!["SequenceNumberArray"] = "[" + string.Join(",", Enumerable.Range(0, count - 1)) + "]";
        var answer = await PipelineDriver.InvokeAsync(fixture.Handler, "WeatherProcessor", System.Text.Encoding.UTF8.GetBytes(body.ToJsonString()));
        Assert.Equal(HttpStatusCode.BadRequest, answer.Status);
        var pattern = $"SequenceNumberArray\\D{{0,8}}{count - 1}\\b";
        return (await fixture.Handler.WaitForLineAsync(pattern, TimeSpan.FromSeconds(30))).Value;
    }

    [Fact]
    public async Task WeatherProcessor_DeviceLogicalPartitionFull_ItsDocumentsRejectedByStoreAndTheRestWritten()
    {
        var (full, fine) = (Builders.Device("pk-full"), Builders.Device("pk-fine"));
        using (fixture.Proxy.AnswerWritesContaining(full, HttpStatusCode.Forbidden, 1014))
        {
            var envelope = PipelineDriver.WeatherEnvelope(
                PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(full, 1), Builders.Weather(fine, 1))));

            var answer = await PipelineDriver.ProcessAsync(fixture.Handler, "WeatherProcessor", [envelope], partitionId: "23");

            Assert.Equal(HttpStatusCode.OK, answer.Status);
            Assert.NotNull(await fixture.Store.ReadAsync("readings", Builders.ReadingId(fine, 1), fine));
            var id = $"weather-processor-store:23:{envelope.SequenceNumber}:0";
            var letter = await fixture.Store.ReadAsync("deadletters", id, id) ?? throw new Xunit.Sdk.XunitException("no rejected-by-store dead letter");
            Assert.Equal("rejected-by-store", letter.GetProperty("reason").GetString());
            Assert.Equal(full, letter.GetProperty("deviceId").GetString());
        }
    }

    [Fact]
    public async Task WeatherProcessor_ContainerGone404_FailsWithoutDeadLettering()
    {
        var device = Builders.Device("gone");
        // Gone: every write to it is answered 404/1003, the canary's too.
        using (fixture.Proxy.AnswerWritesContaining("", HttpStatusCode.NotFound, 1003))
        {
            var envelope = PipelineDriver.WeatherEnvelope(PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(device, 1))));

            var answer = await PipelineDriver.ProcessAsync(fixture.Handler, "WeatherProcessor", [envelope], partitionId: "24");

            Assert.Equal(HttpStatusCode.InternalServerError, answer.Status);
            Assert.Contains("Systemic", answer.LogText, StringComparison.Ordinal);
            var id = $"weather-processor-store:24:{envelope.SequenceNumber}:0";
            Assert.Null(await fixture.Store.ReadAsync("deadletters", id, id));
        }
    }

    [Fact]
    public async Task WeatherProcessor_DeadLetterTooLargeForTheStore_StoredReducedWithItsHash()
    {
        // An undecodable envelope whose dead letter (base64 of 48 KB) the store refuses as too large.
        var garbage = RandomNumberGenerator.GetBytes(48 * 1024);
        garbage[0] = 0xFF; // never a valid protobuf tag
        var envelope = new HubEvent(garbage, PipelineDriver.NextSequence(), DateTimeOffset.UtcNow);
        fixture.Proxy.RejectDeadLettersLargerThan(40 * 1024);
        try
        {
            var answer = await PipelineDriver.ProcessAsync(fixture.Handler, "WeatherProcessor", [envelope], partitionId: "25");

            Assert.Equal(HttpStatusCode.OK, answer.Status);
            var id = $"weather-processor:25:{envelope.SequenceNumber}";
            var letter = await fixture.Store.ReadAsync("deadletters", id, id) ?? throw new Xunit.Sdk.XunitException("dead letter dropped");
            Assert.Equal("undecodable", letter.GetProperty("reason").GetString());
            Assert.True(letter.GetProperty("reduced").GetBoolean());
            Assert.Equal(garbage.Length, letter.GetProperty("payloadBytes").GetInt32());
            Assert.Equal(Convert.ToHexStringLower(SHA256.HashData(garbage)), letter.GetProperty("payloadSha256").GetString());
            Assert.Equal(garbage.AsSpan(0, 16 * 1024).ToArray(), letter.GetProperty("payloadBase64").GetBytesFromBase64());
            Assert.Contains("413", letter.GetProperty("refusedAsIs").GetString(), StringComparison.Ordinal);
        }
        finally
        {
            fixture.Proxy.RejectDeadLettersLargerThan(int.MaxValue);
        }
    }

    [Fact]
    public async Task WeatherProcessor_RetryCrossesTheMaxAge_StillLiveWithItsDeviceUpdate()
    {
        // Fresh at the first attempt (4 s under the 5-minute max age), stale by the time the retry runs.
        // The envelope is split here, in process, right before the first attempt, so no handler warm-up eats the margin.
        var device = Builders.Device("crossing");
        var refusing = fixture.Proxy.AnswerWritesContaining(device, HttpStatusCode.ServiceUnavailable, 0);
        var now = DateTimeOffset.UtcNow;
        var split = new Splitter().Split(
            [new InputEvent(Builders.Batch(Builders.Weather(device, 1)), new SourcePosition("0", 1, (now - TimeSpan.FromMinutes(5) + TimeSpan.FromSeconds(4)).ToUnixTimeMilliseconds()))],
            now.ToUnixTimeMilliseconds());
        var envelope = new HubEvent(Assert.Single(split.Of(Protos.SensorKind.Weather).Envelopes).ToArray(), PipelineDriver.NextSequence(), now);
        InvocationAnswer first;
        using (refusing)
        {
            // The in-invocation retries (0.1 s … 3.2 s) run out after about 6 s: the attempt fails as transient.
            first = await PipelineDriver.ProcessAsync(fixture.Handler, "WeatherProcessor", [envelope], partitionId: "26", retryCount: 0);
        }

        Assert.Equal(HttpStatusCode.InternalServerError, first.Status);
        var retried = await PipelineDriver.ProcessAsync(fixture.Handler, "WeatherProcessor", [envelope], partitionId: "26", retryCount: 1);

        Assert.Equal(HttpStatusCode.OK, retried.Status);
        Assert.True(retried.LogText.Contains("live 1, archived 0, device states 1 pending", StringComparison.Ordinal), retried.LogText);
        Assert.NotNull(await fixture.Store.ReadAsync("readings", Builders.ReadingId(device, 1), device));
        Assert.Null(await fixture.Store.ReadAsync("archive", Builders.ReadingId(device, 1), device));
        Assert.NotNull(await fixture.Store.ReadAsync("devices", device, device));
    }
}
