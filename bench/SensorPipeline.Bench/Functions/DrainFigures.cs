using System.Text.Json;

namespace SensorPipeline.Functions.Bench;

/// <summary>One function's figures over the whole run: devhost's invocation counters and largest invocations, and the
/// handler's per-invocation maxima from its metrics (readings received, readings stored, handler-side duration).</summary>
internal sealed record FunctionFigures(string Name, long Succeeded, long Failed, long Retried, LargestInvocationsView? Largest,
    double MostReadings, double MostStored, double LongestHandlerSeconds);

/// <summary>What <see cref="DrainBench"/> measured, and the table it prints.</summary>
internal sealed record DrainFigures(
    BacklogArguments Arguments,
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
    JsonElement Verdict,
    double LoadAtStart,
    double LoadAtEnd)
{
    /// <summary>verify exited 0 and found nothing missing or stored twice.</summary>
    public bool Passed => VerifyExitCode == 0 && Long("missing") == 0 && Long("duplicated") == 0;

    public double ReadingsPerSecond => Arguments.Readings / Math.Max(Drain.TotalSeconds, 0.001);

    public void Print(TextWriter output)
    {
        ArgumentNullException.ThrowIfNull(output);
        var events = (Arguments.Readings + Arguments.ReadingsPerEvent - 1) / Arguments.ReadingsPerEvent;
        Line(output, $"Backlog drained through the local Release stack (devhost + handler + Cosmos DB emulator), {Environment.ProcessorCount} cores, load average {LoadAtStart:F2} at start, {LoadAtEnd:F2} at end:");
        output.WriteLine("| measure | value |");
        output.WriteLine("|---|---|");
        Line(output, $"| backlog | {Arguments.Readings:N0} readings in {events:N0} ingestion events of {Arguments.ReadingsPerEvent:N0} readings ({IngestionEventBytes:N0} bytes the first), {Arguments.Devices:N0} devices; sent in {Sent.TotalSeconds:N1} s, forwarded by the splitter as {Envelopes:N0} envelopes within {Filled.TotalSeconds:N1} s while both processors were paused |");
        Line(output, $"| catch-up (both processors resumed → every checkpoint at its hub's end) | {Drain.TotalSeconds:N1} s = **{ReadingsPerSecond:N0} readings/s** |");
        Line(output, $"| handler peak RSS (VmHWM) | **{DrainPeakKb / 1024.0:N0} MB** during the catch-up ({ResidentBeforeDrainKb / 1024.0:N0} MB resident before it); {FillPeakKb / 1024.0:N0} MB while the splitter filled the hubs{(HandlerRestarts > 0 ? $"; the handler restarted {HandlerRestarts} times" : "")} |");
        Line(output, $"| loadgen verify | {(Passed ? "PASSED" : "FAILED")}: {Long("sent"):N0} sent, {Long("written"):N0} written, {Long("archived"):N0} archived, {Long("missing"):N0} missing, {Long("duplicated"):N0} duplicated; {Long("devices"):N0} device states checked, {Long("deviceMismatches"):N0} behind |");
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

    private long Long(string name) => BacklogLoad.VerdictCount(Verdict, name);

    private static void Line(TextWriter output, FormattableString text) => output.WriteLine(text.ToString(CultureInfo.InvariantCulture));
}
