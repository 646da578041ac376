using System.Globalization;
using System.Security.Cryptography;
using System.Text.Json;
using Microsoft.Azure.Cosmos;
using SensorPipeline.LoadGen.Ledger;

namespace SensorPipeline.LoadGen.Tests;

/// <summary>`loadgen verify` as a process against the real Cosmos stand-in, with documents in core's formats.</summary>
public sealed class VerifyTests : IClassFixture<CosmosStandIn>, IDisposable
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(90);
    private static readonly byte[] Poison = [0x0A, 0x80, 0x80, 0x80, 0x01, 9, 9, 9];
    private static readonly byte[] Oversize = [.. Enumerable.Repeat((byte)0x0A, 64)];
    private readonly CosmosStandIn _cosmos;
    private readonly TempDirectory _dir = new();

    public VerifyTests(CosmosStandIn cosmos) => _cosmos = cosmos;

    public void Dispose() => _dir.Dispose();

    [Fact]
    public async Task Verify_CompleteSet_PassesExitZero()
    {
        var database = await _cosmos.CreateDatabaseAsync("complete");
        await WriteAsync(database, readings: ["w1:1", "w1:2", "w1:3", "w1:4", "s1:1", "s1:2", "s1:4"], archive: ["w1:5"],
            devices: [("w1", 4), ("s1", 4)], deadLetters: [Poison, Oversize, [0x01]]);

        var (exit, output, errors) = await VerifyAsync("complete", "--json");

        Assert.True(exit == 0, $"exit {exit}\n{output}\n{errors}");
        var verdict = JsonDocument.Parse(output).RootElement;
        Assert.Equal(8, verdict.GetProperty("sent").GetInt64()); // w1 1..5, s1 1..4 minus unsent 3
        Assert.Equal(7, verdict.GetProperty("written").GetInt64());
        Assert.Equal(1, verdict.GetProperty("archived").GetInt64());
        Assert.Equal(0, verdict.GetProperty("missing").GetInt64());
        Assert.Equal(0, verdict.GetProperty("duplicated").GetInt64());
        Assert.Equal(2, verdict.GetProperty("deadLettered").GetInt32());
        Assert.Equal(2, verdict.GetProperty("injectedSent").GetInt32());
        Assert.Equal(1, verdict.GetProperty("otherDeadLetters").GetInt32());
        Assert.Equal(0, verdict.GetProperty("deviceMismatches").GetInt32());
    }

    [Fact]
    public async Task Verify_MissingDuplicatedStaleStateAndLostDeadLetter_ReportedExitOne()
    {
        var database = await _cosmos.CreateDatabaseAsync("lossy");
        // w1:3 nowhere; s1:2 in both containers; s1's state is behind; the oversize event never dead-lettered.
        await WriteAsync(database, readings: ["w1:1", "w1:2", "w1:4", "w1:5", "s1:1", "s1:2", "s1:4"], archive: ["s1:2"],
            devices: [("w1", 5), ("s1", 2)], deadLetters: [Poison]);

        var (exit, output, errors) = await VerifyAsync("lossy");

        Assert.True(exit == 1, $"exit {exit}\n{output}\n{errors}");
        Assert.Contains("verify: FAILED", output, StringComparison.Ordinal);
        Assert.Contains("missing: 1", output, StringComparison.Ordinal);
        Assert.Contains("  w1:3", output, StringComparison.Ordinal);
        Assert.Contains("stored more than once (readings and archive, or under two ids): 1", output, StringComparison.Ordinal);
        Assert.Contains("  s1:2", output, StringComparison.Ordinal);
        Assert.Contains("s1: devices document has sequence 2, highest in readings is 4", output, StringComparison.Ordinal);
        Assert.Contains(Convert.ToHexStringLower(SHA256.HashData(Oversize)), output, StringComparison.Ordinal);
        Assert.DoesNotContain(Convert.ToHexStringLower(SHA256.HashData(Poison)), output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Verify_ReadingsUnderOtherIds_FoundByDeviceAndSequence()
    {
        var database = await WriteReadingsUnderOtherIdsAsync("otherids");

        var (exit, output, errors) = await VerifyAsync("otherids", "--json");

        Assert.True(exit == 0, $"exit {exit}\n{output}\n{errors}");
        var verdict = JsonDocument.Parse(output).RootElement;
        Assert.Equal(7, verdict.GetProperty("written").GetInt64());
        Assert.Equal(0, verdict.GetProperty("missing").GetInt64());
        Assert.Equal(0, verdict.GetProperty("duplicated").GetInt64());
    }

    [Fact]
    public async Task Verify_ReadingUnderTwoIds_ReportedAsDuplicated()
    {
        var database = await WriteReadingsUnderOtherIdsAsync("twoids");

        // The same reading written again under the handler's id: a second document.
        await CosmosStandIn.UpsertAsync(database.GetContainer("readings"), CoreDocuments.Reading("w1", 1), "w1");
        var (exit, output, errors) = await VerifyAsync("twoids");

        Assert.True(exit == 1, $"exit {exit}\n{output}\n{errors}");
        Assert.Contains("stored more than once (readings and archive, or under two ids): 1", output, StringComparison.Ordinal);
        Assert.Contains("  w1:1", output, StringComparison.Ordinal);
    }

    // w1:1, w1:2, s1:1 stored under ids the handler never writes; the rest under the handler's ids. Verify's
    // per-device queries count readings by sequence, so a copy under any id is found.
    private async Task<Database> WriteReadingsUnderOtherIdsAsync(string name)
    {
        var database = await _cosmos.CreateDatabaseAsync(name);
        await WriteAsync(database, readings: ["w1:3", "w1:4", "s1:2", "s1:4"], archive: ["w1:5"],
            devices: [("w1", 4), ("s1", 4)], deadLetters: [Poison, Oversize], otherIdReadings: ["w1:1", "w1:2", "s1:1"]);
        return database;
    }

    [Fact]
    public async Task Verify_MaxAge_CountsArchivedReadingsEnqueuedOutsideTheRunsBacklogEpisodes()
    {
        var database = await _cosmos.CreateDatabaseAsync("episodes");
        await WriteAsync(database, readings: ["w1:1", "w1:2", "w1:3", "w1:4", "s1:1", "s1:2", "s1:4"], archive: ["w1:5"],
            devices: [("w1", 4), ("s1", 4)], deadLetters: [Poison, Oversize]);
        var enqueued = CoreDocuments.EnqueuedAt;

        // Paused 3 s after w1:5 was enqueued, max age 5 s: it was young when the pause began, so the episode explains it.
        var (exit, output, errors) = await VerifyAsync("episodes", [new LedgerPause(enqueued.AddSeconds(3), enqueued.AddSeconds(20), ["WeatherProcessor"])], "--json", "--max-age", "5s");
        Assert.True(exit == 0, $"exit {exit}\n{output}\n{errors}");
        var verdict = JsonDocument.Parse(output).RootElement;
        Assert.Equal(1, verdict.GetProperty("archived").GetInt64());
        Assert.Equal(0, verdict.GetProperty("staleOutsideEpisodes").GetInt64());
        Assert.Single(verdict.GetProperty("episodes").EnumerateArray());

        // Paused 10 s after: w1:5 was already older than the max age, so the chain had fallen behind on its own.
        (exit, output, errors) = await VerifyAsync("episodes", [new LedgerPause(enqueued.AddSeconds(10), enqueued.AddSeconds(20), ["WeatherProcessor"])], "--max-age", "5s");
        Assert.True(exit == 0, $"exit {exit}\n{output}\n{errors}"); // nothing lost: a lateness figure, not a failure
        Assert.Contains("stale readings outside the run's backlog episodes: 1 of 1 archived", output, StringComparison.Ordinal);
        Assert.Contains("  w1:5", output, StringComparison.Ordinal);

        // No episode at all: every stale reading is the chain's own.
        (exit, output, errors) = await VerifyAsync("episodes", [], "--json", "--max-age", "5s");
        Assert.Equal(1, JsonDocument.Parse(output).RootElement.GetProperty("staleOutsideEpisodes").GetInt64());

        // An episode the ledger does not record (the demo's killed instance), given on the command line, explains it too.
        var killed = string.Create(CultureInfo.InvariantCulture, $"{enqueued.AddSeconds(3):O}/{enqueued.AddSeconds(20):O}");
        (exit, output, errors) = await VerifyAsync("episodes", [], "--json", "--max-age", "5s", "--episode", killed);
        Assert.True(exit == 0, $"exit {exit}\n{output}\n{errors}");
        Assert.Equal(0, JsonDocument.Parse(output).RootElement.GetProperty("staleOutsideEpisodes").GetInt64());

        // A malformed or reversed interval, or an episode with nothing to judge it against, is refused by name.
        (exit, _, errors) = await VerifyAsync("episodes", [], "--max-age", "5s", "--episode", string.Create(CultureInfo.InvariantCulture, $"{enqueued.AddSeconds(20):O}/{enqueued:O}"));
        Assert.Equal(2, exit);
        Assert.Contains("is not an interval", errors, StringComparison.Ordinal);
        (exit, _, errors) = await VerifyAsync("episodes", [], "--episode", killed);
        Assert.Equal(2, exit);
        Assert.Contains("--episode needs --max-age", errors, StringComparison.Ordinal);

        // Without --max-age nothing is judged.
        (exit, output, errors) = await VerifyAsync("episodes", "--json");
        Assert.Equal(JsonValueKind.Null, JsonDocument.Parse(output).RootElement.GetProperty("staleOutsideEpisodes").ValueKind);
    }

    [Fact]
    public async Task Verify_NoSuchDatabase_CannotGiveAVerdictExitThree()
    {
        var (exit, output, errors) = await VerifyAsync("never-created");

        Assert.True(exit == 3, $"exit {exit}\n{output}\n{errors}");
        Assert.Contains("readings", errors, StringComparison.Ordinal);
    }

    private Task<(int Exit, string Output, string Errors)> VerifyAsync(string databaseName, params string[] extra) => VerifyAsync(databaseName, [], extra);

    private async Task<(int Exit, string Output, string Errors)> VerifyAsync(string databaseName, List<LedgerPause> pauses, params string[] extra)
    {
        var ledger = new RunLedger
        {
            Target = "test",
            Complete = true,
            Devices =
            [
                new LedgerDevice { Id = "w1", Kind = "weather", HighestSequence = 5 },
                new LedgerDevice { Id = "s1", Kind = "seismic", HighestSequence = 4, Unsent = [new SequenceRange(3, 3)] },
            ],
            Injected =
            [
                Injection("poison", Poison, acknowledged: true),
                Injection("oversize", Oversize, acknowledged: true),
                Injection("oversize", [7, 7, 7], acknowledged: false), // rejected by the hub: not expected anywhere
            ],
            Pauses = pauses,
        };
        var path = _dir.File(databaseName + ".json");
        await LedgerFile.WriteAsync(path, ledger, CancellationToken.None);
        return await LoadGenProcess.RunAsync(Timeout, ["verify", "--ledger", path, "--cosmos-endpoint", _cosmos.Endpoint.ToString(), "--database", databaseName, "--concurrency", "8", .. extra]);
    }

    private static LedgerInjection Injection(string kind, byte[] body, bool acknowledged) =>
        new() { Kind = kind, Sha256 = Convert.ToHexStringLower(SHA256.HashData(body)), Bytes = body.Length, Acknowledged = acknowledged, Status = acknowledged ? 201 : 413 };

    private static async Task WriteAsync(Database database, string[] readings, string[] archive, (string Device, ulong Sequence)[] devices, byte[][] deadLetters,
        string[]? otherIdReadings = null)
    {
        foreach (var id in otherIdReadings ?? [])
        {
            var (device, sequence) = Split(id);
            await CosmosStandIn.UpsertAsync(database.GetContainer("readings"), CoreDocuments.ReadingUnderOtherId(device, sequence), device);
        }

        foreach (var id in readings)
        {
            var (device, sequence) = Split(id);
            await CosmosStandIn.UpsertAsync(database.GetContainer("readings"), CoreDocuments.Reading(device, sequence), device);
        }

        foreach (var id in archive)
        {
            var (device, sequence) = Split(id);
            await CosmosStandIn.UpsertAsync(database.GetContainer("archive"), CoreDocuments.Reading(device, sequence, staleByMs: 400_000), device);
        }

        foreach (var (device, sequence) in devices)
        {
            await CosmosStandIn.UpsertAsync(database.GetContainer("devices"), CoreDocuments.DeviceState(device, sequence), device);
        }

        for (var i = 0; i < deadLetters.Length; i++)
        {
            await CosmosStandIn.UpsertAsync(database.GetContainer("deadletters"), CoreDocuments.DeadLetter(deadLetters[i], i), CoreDocuments.DeadLetterId(i));
        }
    }

    private static (string Device, ulong Sequence) Split(string id)
    {
        var colon = id.IndexOf(':', StringComparison.Ordinal);
        return (id[..colon], ulong.Parse(id[(colon + 1)..], System.Globalization.CultureInfo.InvariantCulture));
    }
}
