using System.Security.Cryptography;
using SensorPipeline.Clients;
using SensorPipeline.LoadGen.Ledger;

namespace SensorPipeline.LoadGen.Tests;

/// <summary>The built loadgen program, run as a process against the recording server (a REST stand-in, so the runs
/// say --transport rest; DevHostSendTests runs the default AMQP transport against devhost).</summary>
public sealed class LoadGenProcessTests : IAsyncLifetime, IDisposable
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(60);
    private readonly TempDirectory _dir = new();
    private RecordingServer _server = null!;

    public async Task InitializeAsync() => _server = await RecordingServer.StartAsync();

    public async Task DisposeAsync() => await _server.DisposeAsync();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public async Task Send_CountWithInjections_EveryReadingOnceDuplicatesAndLedgerMatchWhatTheServerGot()
    {
        var ledgerPath = _dir.File("ledger.json");
        _server.Script(503); // the first request fails transiently: retried, counted once

        var (exit, output, errors) = await LoadGenProcess.RunAsync(Timeout, "--transport", "rest", "--connection", _server.EmulatorConnectionString,
            "--weather", "3", "--seismic", "2", "--count", "1000", "--readings-per-event", "40", "--concurrency", "4",
            "--poison", "2", "--oversize", "1", "--oversize-bytes", "990000", "--duplicate-every", "5", "--inject-every", "4",
            "--base-backoff", "10ms", "--ledger", ledgerPath);

        Assert.True(exit == 0, $"exit {exit}\n{output}\n{errors}");
        var accepted = _server.Requests.Where(r => r.AnsweredWith == 201).ToList();
        var readings = new List<Reading>();
        var poison = new List<byte[]>();
        foreach (var request in accepted)
        {
            Assert.Equal("/ingestion/messages", request.Path);
            EventSenderTests.AssertValidSas(request.Authorization, EventHubsEmulatorAccount.Key);
            try
            {
                readings.AddRange(ReadingBatch.Parser.ParseFrom(request.Body).Readings);
            }
            catch (Google.Protobuf.InvalidProtocolBufferException)
            {
                poison.Add(request.Body);
            }
        }

        var fleetReadings = readings.Where(r => !r.DeviceId.StartsWith("oversize-", StringComparison.Ordinal)).ToList();
        var unique = fleetReadings.DistinctBy(r => (r.DeviceId, r.Sequence)).ToList();
        Assert.Equal(1000, unique.Count);
        Assert.True(fleetReadings.Count > 1000, "no duplicate was sent");
        Assert.Equal(2, poison.Count);
        Assert.Single(accepted, r => r.Body.Length >= 990_000);

        var ledger = await LedgerFile.ReadAsync(ledgerPath, CancellationToken.None);
        Assert.True(ledger.Complete);
        Assert.Equal(1000, ledger.Counts.ReadingsSent);
        Assert.Equal(1, ledger.Counts.Retries);
        Assert.Equal((fleetReadings.Count - 1000) / 40, ledger.Counts.DuplicateEventsSent);
        Assert.Equal(5, ledger.Devices.Count);
        Assert.All(ledger.Devices, d => Assert.Equal((ulong)unique.Count(r => r.DeviceId == d.Id), d.HighestSequence));
        Assert.All(ledger.Devices, d => Assert.Empty(d.Unsent));
        Assert.Equal(3, ledger.Injected.Count);
        Assert.All(ledger.Injected, i => Assert.True(i.Acknowledged));
        Assert.Equal(
            poison.Select(p => Convert.ToHexStringLower(SHA256.HashData(p))).Order(),
            ledger.Injected.Where(i => i.Kind == "poison").Select(i => i.Sha256).Order());
        Assert.Contains("readings sent (201)", output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Send_ServerRejectsEveryEvent_ExitsOneWithEveryReadingListedUnsent()
    {
        var ledgerPath = _dir.File("ledger.json");
        _server.DefaultStatus = 400;

        var (exit, output, errors) = await LoadGenProcess.RunAsync(Timeout, "--transport", "rest", "--connection", _server.EmulatorConnectionString,
            "--weather", "1", "--seismic", "1", "--count", "100", "--readings-per-event", "10", "--ledger", ledgerPath);

        Assert.Equal(1, exit);
        Assert.Contains("rejected permanently", errors, StringComparison.Ordinal);
        Assert.Contains("scripted 400", errors, StringComparison.Ordinal);
        Assert.Equal(10, _server.Requests.Count); // no retry of a 400
        var ledger = await LedgerFile.ReadAsync(ledgerPath, CancellationToken.None);
        Assert.Equal(0, ledger.Counts.ReadingsSent);
        Assert.Equal(10, ledger.Counts.EventsFailed);
        Assert.All(ledger.Devices, d => Assert.Equal([new SequenceRange(1, 50)], d.Unsent));
        Assert.Contains("events failed", output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Send_Rate_PacedNotFlatOut()
    {
        // 400 readings at 200 readings/s in events of 20: event i is due at i·100 ms, so the last one leaves no sooner
        // than 1.9 s after the start. A slow machine only makes the run longer; a run that is not paced is shorter.
        var clock = System.Diagnostics.Stopwatch.StartNew();
        var (exit, output, errors) = await LoadGenProcess.RunAsync(Timeout, "--transport", "rest", "--connection", _server.EmulatorConnectionString,
            "--weather", "2", "--seismic", "2", "--rate", "200", "--count", "400", "--readings-per-event", "20", "--progress-interval", "500ms");
        var elapsed = clock.Elapsed;

        Assert.True(exit == 0, $"exit {exit}\n{output}\n{errors}");
        Assert.Equal(20, _server.Requests.Count);
        Assert.True(elapsed >= TimeSpan.FromSeconds(1.9), $"20 events paced at 200 readings/s took only {elapsed.TotalSeconds:F2} s");
        Assert.Contains("readings/s", output, StringComparison.Ordinal); // plain progress lines when redirected
    }

    [Fact]
    public async Task Send_InterruptedMidRun_LedgerCoversOnlyWhatWasAcknowledged()
    {
        var ledgerPath = _dir.File("ledger.json");
        RunLedger? midRun = null;
        var clock = System.Diagnostics.Stopwatch.StartNew();
        var polls = 0;
        TimeSpan? signalled = null;

        var (exit, output, errors) = await LoadGenProcess.RunAsync(Timeout, async process =>
        {
            // Wait (bounded by the run's timeout) for a progress checkpoint with acknowledged readings, then Ctrl+C.
            midRun = await Eventually.ValueAsync(
                async () =>
                {
                    polls++;
                    return File.Exists(ledgerPath) ? await LedgerFile.ReadAsync(ledgerPath, CancellationToken.None) : null;
                },
                ledger => ledger is { Counts.ReadingsSent: > 0 }, "a progress checkpoint with acknowledged readings", Timeout, TimeSpan.FromMilliseconds(100));

            signalled = clock.Elapsed;
            process.Signal(PosixSignalKind.Interrupt);
        }, "--transport", "rest", "--connection", _server.EmulatorConnectionString, "--weather", "2", "--seismic", "2", "--rate", "400", "--duration", "50s",
            "--readings-per-event", "10", "--progress-interval", "200ms", "--ledger", ledgerPath);

        Assert.True(exit == 130,
            $"exit {exit} after {clock.Elapsed.TotalSeconds:0.0} s; Ctrl+C sent at {signalled?.TotalSeconds:0.0} s after {polls} ledger reads " +
            $"(last: {midRun?.Counts.ReadingsSent} readings sent)\n{output}\n{errors}");
        Assert.False(midRun!.Complete);
        var ledger = await LedgerFile.ReadAsync(ledgerPath, CancellationToken.None);
        Assert.False(ledger.Complete);
        Assert.True(ledger.Counts.ReadingsSent >= midRun.Counts.ReadingsSent);
        var received = _server.Requests.Where(r => r.AnsweredWith == 201).SelectMany(r => ReadingBatch.Parser.ParseFrom(r.Body).Readings)
            .Select(r => (r.DeviceId, r.Sequence)).ToHashSet();
        foreach (var device in ledger.Devices)
        {
            Assert.True(device.HighestSequence > 0);
            for (ulong sequence = 1; sequence <= device.HighestSequence; sequence++)
            {
                Assert.True(received.Contains((device.Id, sequence)) || device.Unsent.Any(r => sequence >= r.First && sequence <= r.Last),
                    $"{device.Id}:{sequence} is claimed but the server never acknowledged it");
            }
        }
    }

    [Fact]
    public async Task Send_PauseFunctionOption_PausesResumesAndRecordsTheEpisode()
    {
        var ledgerPath = _dir.File("ledger.json");
        var (exit, output, errors) = await LoadGenProcess.RunAsync(Timeout, "--transport", "rest", "--connection", _server.EmulatorConnectionString,
            "--weather", "1", "--seismic", "1", "--count", "20", "--readings-per-event", "10", "--ledger", ledgerPath,
            "--pause-function", "WeatherProcessor", "--pause-function", "SeismicProcessor", "--pause-after", "0s", "--pause-for", "400ms");

        Assert.True(exit == 0, $"exit {exit}\n{output}\n{errors}");
        var control = _server.Requests.Where(r => r.Path.StartsWith("/admin/", StringComparison.Ordinal)).ToList();
        Assert.Equal(
            ["/admin/functions/WeatherProcessor/pause", "/admin/functions/SeismicProcessor/pause", "/admin/functions/WeatherProcessor/resume", "/admin/functions/SeismicProcessor/resume"],
            control.Select(r => r.Path));
        Assert.True(control[2].At - control[1].At >= TimeSpan.FromMilliseconds(390), $"resumed after {(control[2].At - control[1].At).TotalMilliseconds} ms");

        // The episode brackets every control call: verify judges stale readings by it.
        var episode = Assert.Single((await LedgerFile.ReadAsync(ledgerPath, CancellationToken.None)).Pauses);
        Assert.Equal(["WeatherProcessor", "SeismicProcessor"], episode.Functions);
        Assert.True(episode.PausedAt <= control[0].At && episode.ResumedAt >= control[3].At, $"{episode} vs {control[0].At:O} … {control[3].At:O}");
    }

    [Fact]
    public async Task Send_PauseRouteAnswers404_RunStillSendsButExitsNonZero()
    {
        var (exit, _, errors) = await LoadGenProcess.RunAsync(Timeout, "--transport", "rest", "--connection", _server.EmulatorConnectionString,
            "--weather", "1", "--seismic", "1", "--count", "20", "--readings-per-event", "10",
            "--pause-function", "Nope", "--pause-after", "0s", "--pause-for", "100ms", "--pause-route", "/missing/{name}");

        Assert.Equal(1, exit);
        Assert.Contains("/missing/Nope answered 404", errors, StringComparison.Ordinal);
        Assert.Equal(2, _server.Requests.Count(r => r.Path == "/ingestion/messages"));
    }

    [Theory]
    [InlineData("--rate", "0", "--rate")]
    [InlineData("--duration", "soon", "duration")]
    [InlineData("--readings-per-event", "0", "--readings-per-event")]
    public async Task Send_BadOption_ExitsTwoNamingItSendingNothing(string option, string value, string named)
    {
        var (exit, _, errors) = await LoadGenProcess.RunAsync(Timeout, "--transport", "rest", "--connection", _server.EmulatorConnectionString, "--count", "10", option, value);

        Assert.Equal(2, exit);
        Assert.Contains(named, errors, StringComparison.Ordinal);
        Assert.Empty(_server.Requests);
    }

    [Fact]
    public async Task Send_NoConnection_ExitTwoNamingTheSetting()
    {
        var (exit, _, errors) = await LoadGenProcess.RunAsync(Timeout, "--count", "10");

        Assert.Equal(2, exit);
        Assert.Contains("EventHubConnection", errors, StringComparison.Ordinal);
    }
}
