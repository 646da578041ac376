using System.CommandLine;
using Microsoft.Azure.Cosmos;
using SensorPipeline.CommandLine;
using SensorPipeline.LoadGen.Ledger;
using SensorPipeline.LoadGen.Run;
using SensorPipeline.LoadGen.Store;
using SensorPipeline.LoadGen.Verify;

namespace SensorPipeline.LoadGen.Cli;

/// <summary><c>loadgen verify</c>: checks a run's ledger against Cosmos DB (see <see cref="VerifyOptions"/>).</summary>
internal static class VerifyCommand
{
    private static readonly Option<string> LedgerPath = new("--ledger") { Description = "The run's ledger file.", Required = true };
    private static readonly CosmosAccountCommandLine Cosmos = new();
    private static readonly Option<string> Readings = SharedOptions.StoreName("--readings-container", "Live readings container", "Cosmos__ReadingsContainer", "readings");
    private static readonly Option<string> Archive = SharedOptions.StoreName("--archive-container", "Stale readings container", "Cosmos__ArchiveContainer", "archive");
    private static readonly Option<string> Devices = SharedOptions.StoreName("--devices-container", "Latest state container", "Cosmos__DevicesContainer", "devices");
    private static readonly Option<int> Concurrency = new("--concurrency") { Description = "Devices checked at once (two queries each).", DefaultValueFactory = _ => 64 };
    private static readonly Option<bool> Json = new("--json") { Description = "Print the verdict as JSON." };
    private static readonly Option<TimeSpan> ProgressInterval = new("--progress-interval")
    {
        Description = "Progress interval (stderr).", DefaultValueFactory = _ => TimeSpan.FromSeconds(2), CustomParser = Durations.Parse,
    };

    private static readonly Option<TimeSpan?> MaxAge = new("--max-age")
    {
        Description = "The pipeline's max age: also count archived readings enqueued outside the run's backlog episodes (and the max age before each).",
        CustomParser = r => Durations.Parse(r),
    };

    private static readonly Option<List<(DateTimeOffset From, DateTimeOffset To)>> Episode = new("--episode")
    {
        Description = "With --max-age: another backlog episode the ledger does not record, as START/END (ISO 8601), e.g. an instance killed until its partitions were owned again. Repeatable.",
        CustomParser = IntervalParser.ParseAll,
        AllowMultipleArgumentsPerToken = false,
    };

    public static Command Create() =>
        new Command("verify", "Checks in Cosmos DB that every reading of a run's ledger arrived exactly once; exits 1 on any loss.")
            .WithAction([LedgerPath, .. Cosmos.Account, Readings, Archive, Devices, Cosmos.DeadLetters, Concurrency, Json, ProgressInterval, MaxAge, Episode], RunAsync);

    private static Task<int> RunAsync(ParseResult parse, CancellationToken cancellationToken) =>
        StartupValidation.RunAsync<VerifyOptions, VerifyOptionsValidator>(o => Bind(parse, o), verbose: false,
            (_, options) => VerifyAsync(options, cancellationToken));

    private static async Task<int> VerifyAsync(VerifyOptions options, CancellationToken cancellationToken)
    {
        RunLedger ledger;
        try
        {
            ledger = await LedgerFile.ReadAsync(options.Ledger, cancellationToken);
        }
        catch (InvalidDataException e)
        {
            await Console.Error.WriteLineAsync("loadgen verify: " + e.Message);
            return ExitCodes.Usage;
        }

        // Each device check has two queries in flight at once (its readings and its archived readings).
        using var client = CosmosAccountClient.Create(options, "sensorpipeline-loadgen-verify", requestsInFlight: options.Concurrency * 2);
        var database = client.GetDatabase(options.Database);
        var verifier = new LedgerVerifier(new VerifyContainers(database.GetContainer(options.ReadingsContainer), database.GetContainer(options.ArchiveContainer),
            database.GetContainer(options.DevicesContainer), database.GetContainer(options.DeadLettersContainer)), options.Concurrency, options.MaxAge, options.Episodes);
        var expected = LedgerVerifier.Expected(ledger);
        var progress = new ProgressLine(Console.Error, live: !Console.IsErrorRedirected);
        using var stopProgress = new CancellationTokenSource();
        var reporter = ReportAsync(verifier, expected, progress, options.ProgressInterval, stopProgress.Token);
        Verdict verdict;
        try
        {
            verdict = await verifier.VerifyAsync(ledger, cancellationToken);
        }
        catch (Exception e) when (e is CosmosVerifyException or CosmosException or HttpRequestException)
        {
            // Errors, not misses: exit 3 rather than 1, so nobody reads an outage as data loss.
            await Console.Error.WriteLineAsync("loadgen verify: cannot give a verdict: " + e.Message);
            return ExitCodes.NoVerdict;
        }
        finally
        {
            await stopProgress.CancelAsync();
            await reporter;
            progress.Finish();
        }

        if (!ledger.Complete)
        {
            await Console.Error.WriteLineAsync("loadgen verify: note: the ledger is from an interrupted or unfinished run; it covers what was acknowledged.");
        }

        if (options.Json)
        {
            VerdictPrinter.PrintJson(verdict, Console.Out);
        }
        else
        {
            VerdictPrinter.PrintTable(verdict, Console.Out);
        }

        return verdict.Passed ? ExitCodes.Ok : ExitCodes.Failed;
    }

    private static async Task ReportAsync(LedgerVerifier verifier, long expected, ProgressLine progress, TimeSpan interval, CancellationToken cancellationToken)
    {
        using var timer = new PeriodicTimer(interval);
        try
        {
            while (await timer.WaitForNextTickAsync(cancellationToken))
            {
                progress.Write($"verify: {verifier.Checked:N0} of {expected:N0} readings checked");
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // Verification finished.
        }
    }

    private static void Bind(ParseResult parse, VerifyOptions o)
    {
        o.Ledger = parse.GetValue(LedgerPath)!;
        Cosmos.Bind(parse, o);
        o.ReadingsContainer = SharedOptions.OrEnv(parse, Readings, "Cosmos__ReadingsContainer");
        o.ArchiveContainer = SharedOptions.OrEnv(parse, Archive, "Cosmos__ArchiveContainer");
        o.DevicesContainer = SharedOptions.OrEnv(parse, Devices, "Cosmos__DevicesContainer");
        o.Concurrency = parse.GetValue(Concurrency);
        o.Json = parse.GetValue(Json);
        o.ProgressInterval = parse.GetValue(ProgressInterval);
        o.MaxAge = parse.GetValue(MaxAge);
        o.Episodes = parse.GetValue(Episode) ?? [];
    }
}
