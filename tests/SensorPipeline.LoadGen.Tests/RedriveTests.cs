using System.Globalization;
using System.Net;
using System.Text.Json;
using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using Microsoft.Azure.Cosmos;
using SensorPipeline.Core.DeadLetters;
using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Splitting;
using SensorPipeline.LoadGen.Ledger;
using SensorPipeline.Stack;
using SourcePosition = SensorPipeline.Core.Readings.SourcePosition;

namespace SensorPipeline.LoadGen.Tests;

/// <summary>
/// <c>loadgen redrive</c> against the whole local chain (devhost running the real handler, the Cosmos DB emulator).
/// The dead letters are written with core's own DeadLetterWriter, as the pipeline stores them, for a fault that has
/// since been fixed: a splitter rule that wrongly refused these readings' observed-at times (one reading, and one whole
/// event), and a weather envelope isolated while the store refused its device's writes. Re-driven, the readings are
/// stored; the dead letters are marked, never deleted.
/// </summary>
public sealed class RedriveTests : IDisposable
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(90);
    private readonly TempDirectory _dir = new("redrive-");

    public void Dispose() => _dir.Dispose();

    [Fact]
    public async Task Redrive_SelectedDeadLetters_SentOnceAndMarkedDryRunAndRepeatSendNothing()
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(4));
        await using var pipeline = await LocalPipeline.StartAsync(RepoLayout.Current,
            new StackOptions { DataDirectory = _dir.File("stack"), DatabaseName = "redrive" }, timeout.Token);
        using var cosmos = CosmosStandIn.ClientFor(pipeline.CosmosEndpoint);
        var database = await CosmosStandIn.CreateDatabaseAsync(cosmos, "redrive");

        var deadLetters = database.GetContainer("deadletters");
        var readings = database.GetContainer("readings");
        var now = DateTimeOffset.UtcNow;
        var device = "redrive-" + Guid.NewGuid().ToString("N")[..8];
        var isolated = "isolated-" + Guid.NewGuid().ToString("N")[..8];
        var refused = "refused-" + Guid.NewGuid().ToString("N")[..8];
        var position = new SourcePosition("0", 7, now.ToUnixTimeMilliseconds());
        var single = Builders.Weather(device, 1, observed: now).ToByteArray();
        var wholeEvent = new ReadingBatch { Readings = { Builders.Weather(device, 2, observed: now), Builders.Weather(device, 3, observed: now) } }.ToByteArray();
        var envelope = Envelope(Builders.Weather(isolated, 1, observed: now), now);
        var letters = new[]
        {
            new DeadLetter(Splitter.Stage, DeadLetterReason.InvalidObservedAt, position, 0, device, single),
            new DeadLetter(Splitter.Stage, DeadLetterReason.ManyInvalidReadings, position with { SequenceNumber = 8 }, null, null, wholeEvent),
            new DeadLetter("weather-processor", DeadLetterReason.FailedInIsolation, position with { SequenceNumber = 9 }, null, null, envelope, "failed 3 times on its own"),
            // A store refusal stored reduced (written again with only its first bytes, as when the store refused it whole): cannot be re-sent.
            new DeadLetter("weather-processor-store", DeadLetterReason.RejectedByStore, position with { SequenceNumber = 10 }, 0, device, Builders.Weather(device, 4, observed: now).ToByteArray()),
            new DeadLetter(Splitter.Stage, DeadLetterReason.Undecodable, position with { SequenceNumber = 11 }, null, null, new byte[] { 0x0A, 0xFF }),
            // A store refusal as the processor writes it: the refused document's reading, its exact bytes.
            new DeadLetter("weather-processor-store", DeadLetterReason.RejectedByStore, position with { SequenceNumber = 12 }, 1, refused, Builders.Weather(refused, 1, observed: now).ToByteArray(),
                "refused twice while readings took a known-good write"),
        };
        foreach (var letter in letters)
        {
            var document = letter == letters[3] ? DeadLetterWriter.ToUtf8Reduced(letter, now, "413 request entity too large", keepBytes: 8) : DeadLetterWriter.ToUtf8(letter, now);
            await CosmosStandIn.UpsertAsync(deadLetters, document, letter.Id);
        }

        string[] select = ["--reason", "invalid-observed-at", "--reason", "many-invalid-readings", "--reason", "failed-in-isolation", "--reason", "rejected-by-store"];
        string[] target = ["--connection", pipeline.EventHubConnection, "--cosmos-endpoint", pipeline.CosmosEndpoint.AbsoluteUri, "--database", "redrive"];
        var hubsBefore = await LastSequenceNumbersAsync(pipeline);

        // Dry run: lists, sends nothing, marks nothing.
        var (exit, output, errors) = await LoadGenProcess.RunAsync(Timeout, ["redrive", .. target, .. select, "--dry-run"]);
        Assert.True(exit == 0, $"exit {exit}\n{output}\n{errors}");
        Assert.Contains("redrive (dry run): 5 selected, 0 sent, 4 would be sent, 1 skipped, 0 failed", output, StringComparison.Ordinal);
        Assert.Contains($"would send {letters[2].Id}", output, StringComparison.Ordinal);
        Assert.Contains("bytes to weather", output, StringComparison.Ordinal);
        Assert.Contains($"skipped    {letters[3].Id}", output, StringComparison.Ordinal);
        Assert.Contains("stored reduced", output, StringComparison.Ordinal);
        Assert.DoesNotContain(letters[4].Id, output, StringComparison.Ordinal); // another reason: not selected
        Assert.Equal(hubsBefore, await LastSequenceNumbersAsync(pipeline));
        foreach (var letter in letters)
        {
            Assert.False((await ReadAsync(deadLetters, letter.Id)).TryGetProperty("redrivenAt", out _), letter.Id);
        }

        // The re-drive: four events sent, each dead letter marked.
        (exit, output, errors) = await LoadGenProcess.RunAsync(Timeout, ["redrive", .. target, .. select]);
        Assert.True(exit == 0, $"exit {exit}\n{output}\n{errors}");
        Assert.Contains("redrive: 5 selected, 4 sent, 0 would be sent, 1 skipped, 0 failed", output, StringComparison.Ordinal);
        string Id(string d, ulong sequence) => SensorPipeline.Core.GeoJson.DocumentIds.ReadingId(d, sequence, now);
        foreach (var (id, key) in new[] { (Id(device, 1), device), (Id(device, 2), device), (Id(device, 3), device), (Id(isolated, 1), isolated), (Id(refused, 1), refused) })
        {
            await WaitForAsync(readings, id, key, timeout.Token);
        }

        foreach (var (letter, hub) in new[] { (letters[0], "ingestion"), (letters[1], "ingestion"), (letters[2], "weather"), (letters[5], "ingestion") })
        {
            var marked = await ReadAsync(deadLetters, letter.Id);
            Assert.Equal(1, marked.GetProperty("redriveCount").GetInt32());
            Assert.Equal(hub, marked.GetProperty("redrivenTo").GetString());
            Assert.True(DateTimeOffset.Parse(marked.GetProperty("redrivenAt").GetString()!, CultureInfo.InvariantCulture) >= now);
            Assert.Equal(Convert.ToBase64String(letter.Payload.Span), marked.GetProperty("payloadBase64").GetString()); // kept whole
        }

        Assert.False((await ReadAsync(deadLetters, letters[3].Id)).TryGetProperty("redrivenAt", out _));

        // Again without --again: skipped, nothing sent. With --again and --id: sent once more, counted.
        var hubsAfter = await LastSequenceNumbersAsync(pipeline);
        (exit, output, errors) = await LoadGenProcess.RunAsync(Timeout, ["redrive", .. target, .. select]);
        Assert.True(exit == 0, $"exit {exit}\n{output}\n{errors}");
        Assert.Contains("redrive: 5 selected, 0 sent, 0 would be sent, 5 skipped, 0 failed", output, StringComparison.Ordinal);
        Assert.Contains("already re-driven 1 time(s)", output, StringComparison.Ordinal);
        Assert.Equal(hubsAfter, await LastSequenceNumbersAsync(pipeline));

        (exit, output, errors) = await LoadGenProcess.RunAsync(Timeout, ["redrive", .. target, "--id", letters[0].Id, "--again"]);
        Assert.True(exit == 0, $"exit {exit}\n{output}\n{errors}");
        Assert.Contains("redrive: 1 selected, 1 sent", output, StringComparison.Ordinal);
        Assert.Equal(2, (await ReadAsync(deadLetters, letters[0].Id)).GetProperty("redriveCount").GetInt32());

        // A time range that holds none of them selects nothing.
        (exit, output, errors) = await LoadGenProcess.RunAsync(Timeout, ["redrive", .. target, "--since", now.AddHours(1).ToString("O", CultureInfo.InvariantCulture)]);
        Assert.True(exit == 0, $"exit {exit}\n{output}\n{errors}");
        Assert.Contains("redrive: 0 selected", output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Redrive_ManyInvalidReadingsWhoseValidOnesWereArchived_VerifyFindsEachReadingOnce()
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(5));
        var maxAge = TimeSpan.FromSeconds(5);
        await using var pipeline = await LocalPipeline.StartAsync(RepoLayout.Current, new StackOptions
        {
            DataDirectory = _dir.File("archived"),
            DatabaseName = "redrive-archived",
            MaxAge = maxAge,
            Environment = new Dictionary<string, string> { ["EventHubs__Sas__AllowAnonymous"] = "true" },
        }, timeout.Token);
        using var cosmos = CosmosStandIn.ClientFor(pipeline.CosmosEndpoint);
        var database = cosmos.GetDatabase("redrive-archived");
        var now = DateTimeOffset.UtcNow;
        var device = "archived-" + Guid.NewGuid().ToString("N")[..8];
        var junk = "junk-" + Guid.NewGuid().ToString("N")[..8];

        // One event: 3 valid readings and 101 invalid ones (sequence 0), so the splitter writes one many-invalid-readings
        // letter and forwards the valid three — which wait behind the paused processor until they are stale, and are archived.
        var batch = new ReadingBatch { Readings = { Builders.Weather(device, 1, observed: now), Builders.Weather(device, 2, observed: now), Builders.Weather(device, 3, observed: now) } };
        batch.Readings.AddRange(Enumerable.Range(0, 101).Select(_ => Builders.Weather(junk, 0, observed: now)));
        await pipeline.SetPausedAsync("WeatherProcessor", true, timeout.Token);
        using (var http = new HttpClient { BaseAddress = pipeline.DevHostUrl })
        using (var content = new ByteArrayContent(batch.ToByteArray()))
        using (var sent = await http.PostAsync(new Uri("ingestion/messages", UriKind.Relative), content, timeout.Token))
        {
            Assert.Equal(HttpStatusCode.Created, sent.StatusCode);
        }

        var sentAt = DateTimeOffset.UtcNow;
        await CountReachesAsync(database.GetContainer("deadletters"), "c.reason = 'many-invalid-readings'", 1, timeout.Token);

        // Stale is a matter of time: the readings' enqueue must be older than the max age when the processor sees them.
        await Task.Delay(sentAt + maxAge + TimeSpan.FromSeconds(1) - DateTimeOffset.UtcNow, timeout.Token);
        await pipeline.SetPausedAsync("WeatherProcessor", false, timeout.Token);
        var deviceFilter = $"c.deviceId = '{device}'";
        await CountReachesAsync(database.GetContainer("archive"), deviceFilter, 3, timeout.Token);

        var ledgerPath = _dir.File("archived-ledger.json");
        await LedgerFile.WriteAsync(ledgerPath, new RunLedger
        {
            Target = "ingestion",
            StartedAt = now,
            UpdatedAt = now,
            Complete = true,
            Devices = [new LedgerDevice { Id = device, Kind = "weather", HighestSequence = 3 }],
        }, timeout.Token);
        string[] verify = ["verify", "--ledger", ledgerPath, "--cosmos-endpoint", pipeline.CosmosEndpoint.AbsoluteUri, "--database", "redrive-archived"];
        var (exit, output, errors) = await LoadGenProcess.RunAsync(Timeout, verify);
        Assert.True(exit == 0, $"before the re-drive: exit {exit}\n{output}\n{errors}");

        // The fix was made; the letter is re-driven. Once its readings went through the splitter again (a second
        // many-invalid-readings letter: the invalid ones are still invalid) and the processors drained, verify again.
        (exit, output, errors) = await LoadGenProcess.RunAsync(Timeout, ["redrive", "--connection", pipeline.EventHubConnection,
            "--cosmos-endpoint", pipeline.CosmosEndpoint.AbsoluteUri, "--database", "redrive-archived", "--reason", "many-invalid-readings"]);
        Assert.True(exit == 0, $"exit {exit}\n{output}\n{errors}");
        Assert.Contains("1 sent", output, StringComparison.Ordinal);
        await CountReachesAsync(database.GetContainer("deadletters"), "c.reason = 'many-invalid-readings'", 2, timeout.Token);

        await pipeline.WaitForDrainAsync(TimeSpan.FromMinutes(2), TimeSpan.FromMilliseconds(500), timeout.Token);
        (exit, output, errors) = await LoadGenProcess.RunAsync(Timeout, verify);
        Assert.True(exit == 0, $"after the re-drive: exit {exit}\n{output}\n{errors}");
        Assert.Equal(3, await CountAsync(database.GetContainer("archive"), deviceFilter, timeout.Token));
        Assert.Equal(0, await CountAsync(database.GetContainer("readings"), deviceFilter, timeout.Token));
    }

    [Fact]
    public async Task Redrive_NoSelector_RefusedNamingTheOptions()
    {
        var (exit, _, errors) = await LoadGenProcess.RunAsync(Timeout, "redrive", "--connection", "Endpoint=sb://127.0.0.1:1;SharedAccessKeyName=k;SharedAccessKey=v", "--cosmos-endpoint", "https://127.0.0.1:1/");
        Assert.Equal(2, exit);
        Assert.Contains("--reason, --since, --until or --id", errors, StringComparison.Ordinal);
    }

    /// <summary>The weather envelope the real splitter makes of one reading.</summary>
    private static byte[] Envelope(Reading reading, DateTimeOffset now)
    {
        var result = new Splitter().Split([new InputEvent(new ReadingBatch { Readings = { reading } }.ToByteArray(), new SourcePosition("0", 1, now.ToUnixTimeMilliseconds()))],
            now.ToUnixTimeMilliseconds());
        return Assert.Single(result.Of(SensorKind.Weather).Envelopes).ToArray();
    }

    private static async Task<long> CountAsync(Container container, string filter, CancellationToken cancellationToken)
    {
        using var iterator = container.GetItemQueryIterator<long>(new QueryDefinition("SELECT VALUE COUNT(1) FROM c WHERE " + filter));
        long count = 0;
        while (iterator.HasMoreResults)
        {
            count += (await iterator.ReadNextAsync(cancellationToken)).Sum();
        }

        return count;
    }

    private static async Task<string> LastSequenceNumbersAsync(LocalPipeline pipeline)
    {
        using var http = new HttpClient { BaseAddress = pipeline.DevHostUrl };
        using var status = JsonDocument.Parse(await http.GetStringAsync(new Uri("status", UriKind.Relative)));
        return string.Join(",", status.RootElement.GetProperty("hubs").EnumerateArray()
            .SelectMany(h => h.GetProperty("partitions").EnumerateArray().Select(p => $"{h.GetProperty("name").GetString()}/{p.GetProperty("id").GetString()}={p.GetProperty("lastSequenceNumber").GetInt64()}")));
    }

    private static async Task<JsonElement> ReadAsync(Container container, string id)
    {
        using var response = await container.ReadItemStreamAsync(id, new PartitionKey(id));
        Assert.True(response.StatusCode == HttpStatusCode.OK, $"{id}: {response.StatusCode}");
        using var document = await JsonDocument.ParseAsync(response.Content);
        return document.RootElement.Clone();
    }

    /// <summary>Waits until one document is stored.</summary>
    private static Task WaitForAsync(Container container, string id, string partitionKey, CancellationToken cancellationToken) =>
        Eventually.UntilAsync(
            async token =>
            {
                using var response = await container.ReadItemStreamAsync(id, new PartitionKey(partitionKey), cancellationToken: token);
                return response.StatusCode == HttpStatusCode.OK;
            },
            $"{id} stored in {container.Id}", Timeout, TimeSpan.FromMilliseconds(250), cancellationToken: cancellationToken);

    /// <summary>Waits until at least <paramref name="count"/> documents of a container match <paramref name="filter"/>; returns how many.</summary>
    private static Task<long> CountReachesAsync(Container container, string filter, long count, CancellationToken cancellationToken) =>
        Eventually.ValueAsync(token => CountAsync(container, filter, token), stored => stored >= count, $"{count} documents in {container.Id} where {filter}",
            Timeout, TimeSpan.FromMilliseconds(250), cancellationToken: cancellationToken);
}
