using System.Text.Json;

namespace SensorPipeline.Functions.Bench;

/// <summary>One function's figures over the whole run: devhost's invocation counters and largest invocations, and the
/// handler's per-invocation maxima from its metrics (readings received, readings stored, handler-side duration).</summary>
internal sealed record FunctionFigures(string Name, long Succeeded, long Failed, long Retried, LargestInvocationsView? Largest,
    double MostReadings, double MostStored, double LongestHandlerSeconds);

/// <summary>What <see cref="DrainBench"/> measured, its targets against the ceiling measured in the same run, and the
/// tables it prints.</summary>
internal sealed record DrainFigures(
    BacklogArguments Arguments,
    double CeilingReadingsPerSecond,
    int IngestionEventBytes,
    TimeSpan Sent,
    TimeSpan Filled,
    long Envelopes,
    TimeSpan Drain,
    long FillPeakKb,
    long ResidentBeforeDrainKb,
    long DrainPeakKb,
    int HandlerRestarts,
    IReadOnlyList<FunctionFigures> Functions,
    int VerifyExitCode,
    ReadingAccount? Account,
    JsonElement Verdict,
    double LoadAtStart,
    double LoadAtEnd)
{
    /// <summary>Catch-up readings/s at least this multiple of the ceiling's: after an outage the chain works off its
    /// backlog nearly as fast as it carries live load, so readings stay stale about as long as the outage lasted.</summary>
    public static readonly BenchTarget CatchUpOverCeiling = BenchTarget.NoLessThan(0.8);

    /// <summary>The handler's peak resident set during the catch-up, MB (MiB, as the tables print): its share of an
    /// instance's memory.</summary>
    public static readonly BenchTarget HandlerPeakMb = BenchTarget.AtMost(1024);

    /// <summary>Readings lost: none.</summary>
    public static readonly BenchTarget Lost = BenchTarget.AtMost(0);

    /// <summary>verify exited 0 and its counts balance with nothing lost or stored twice.</summary>
    public bool Passed => VerifyExitCode == 0 && Account is { Lost: 0, Duplicated: 0, Balanced: true };

    public double ReadingsPerSecond => Arguments.Readings / Math.Max(Drain.TotalSeconds, 0.001);

    /// <summary>Catch-up readings/s as a multiple of the ceiling's; null when the ceiling measured nothing.</summary>
    public double? OverCeiling => BenchTarget.Ratio(ReadingsPerSecond, CeilingReadingsPerSecond);

    public void Print(TextWriter output)
    {
        ArgumentNullException.ThrowIfNull(output);
        var events = (Arguments.Readings + Arguments.ReadingsPerEvent - 1) / Arguments.ReadingsPerEvent;
        Line(output, $"Backlog drained through the local Release stack (devhost + handler + Cosmos DB emulator), {Environment.ProcessorCount} cores, load average {LoadAtStart:F2} at start, {LoadAtEnd:F2} at end:");
        output.WriteLine();
        PrintTargets(output);
        output.WriteLine("| measure | value |");
        output.WriteLine("|---|---|");
        Line(output, $"| backlog | {Arguments.Readings:N0} readings in {events:N0} ingestion events of {Arguments.ReadingsPerEvent:N0} readings ({IngestionEventBytes:N0} bytes the first), {Arguments.Devices:N0} devices; sent in {Sent.TotalSeconds:N1} s, forwarded by the splitter as {Envelopes:N0} envelopes within {Filled.TotalSeconds:N1} s while both processors were paused |");
        Line(output, $"| catch-up (both processors resumed → every checkpoint at its hub's end) | {Drain.TotalSeconds:N1} s = **{ReadingsPerSecond:N0} readings/s** |");
        Line(output, $"| handler peak RSS (VmHWM) | **{DrainPeakKb / 1024.0:N0} MB** during the catch-up ({ResidentBeforeDrainKb / 1024.0:N0} MB resident before it); {FillPeakKb / 1024.0:N0} MB while the splitter filled the hubs{(HandlerRestarts > 0 ? $"; the handler restarted {HandlerRestarts} times" : "")} |");
        Line(output, $"| loadgen verify | {(Passed ? "PASSED" : "FAILED")}: {Long("sent"):N0} sent, {Long("written"):N0} written, {Long("archived"):N0} archived, {Long("missing"):N0} missing, {Long("duplicated"):N0} duplicated; {Long("devices"):N0} device states checked, {Long("deviceMismatches"):N0} behind; {Long("unexplainedDeadLetters"):N0} dead letters of this run |");
        output.WriteLine();
        output.WriteLine("| function | invocations ok / failed / retried | largest request body | most events | most readings | most readings stored | longest invocation: host / handler |");
        output.WriteLine("|---|---|---|---|---|---|---|");
        foreach (var f in Functions)
        {
            var largest = f.Largest ?? new LargestInvocationsView(0, 0, 0);
            var stored = BacklogLoad.Processors.Contains(f.Name) ? f.MostStored.ToString("N0", CultureInfo.InvariantCulture) : "– (forwards)";
            Line(output, $"| {f.Name} | {f.Succeeded:N0} / {f.Failed:N0} / {f.Retried:N0} | {largest.RequestBytes:N0} B | {largest.Events:N0} | {f.MostReadings:N0} | {stored} | {largest.Seconds:F2} s / {f.LongestHandlerSeconds:F2} s |");
        }

        output.WriteLine("Each column is its own maximum over the run's invocations (\"in one invocation\"); host figures from devhost's /status/functions, readings and the handler's duration from the handler's metrics.");
    }

    /// <summary>The three targets, each beside the figure and its baseline from this run.</summary>
    private void PrintTargets(TextWriter output)
    {
        output.WriteLine("| target | measured | bound | verdict | baseline in the same run |");
        output.WriteLine("|---|---:|---:|---|---|");
        var ratio = OverCeiling;
        Line(output, $"| catch-up readings/s ÷ the chain's ceiling | {(ratio is { } r ? r.ToString("F2", CultureInfo.InvariantCulture) + "×" : "–")} ({ReadingsPerSecond:N0} readings/s) | {CatchUpOverCeiling.Describe("F2", "×")} | {CatchUpOverCeiling.Judge(ratio).Text()} | ceiling {CeilingReadingsPerSecond:N0} readings/s (`bench e2e`'s phase 2, on this run's handler settings) |");
        var peakMb = DrainPeakKb / 1024.0;
        Line(output, $"| handler peak RSS during the catch-up | {peakMb:N0} MB | {HandlerPeakMb.Describe("N0", " MB")} | {HandlerPeakMb.Judge(peakMb).Text()} | {ResidentBeforeDrainKb / 1024.0:N0} MB resident before the catch-up |");
        var account = Account;
        Line(output, $"| readings lost | {(account is null ? "–" : account.Lost.ToString("N0", CultureInfo.InvariantCulture))} | {Lost.Describe("N0", "")} | {Lost.Judge(account?.Lost).Text()} | {Accounting(account)} |");
        output.WriteLine();
    }

    private static string Accounting(ReadingAccount? account)
    {
        if (account is null)
        {
            return "verify gave no verdict: see its output in the run folder";
        }

        var counts = string.Create(CultureInfo.InvariantCulture,
            $"loadgen sent {account.Sent:N0}: {account.Live:N0} live + {account.Archived:N0} archived + {account.Duplicated:N0} in both; {account.DeadLettered:N0} of {account.InjectedSent:N0} injected events dead-lettered");
        return account.Balanced ? counts : counts + string.Create(CultureInfo.InvariantCulture, $"; verify's own missing count ({account.Missing:N0}) disagrees: its counts are not to be trusted");
    }

    private long Long(string name) => BacklogLoad.VerdictCount(Verdict, name);

    private static void Line(TextWriter output, FormattableString text) => output.WriteLine(text.ToString(CultureInfo.InvariantCulture));
}
