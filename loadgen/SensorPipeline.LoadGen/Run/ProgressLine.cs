using System.Globalization;

namespace SensorPipeline.LoadGen.Run;

/// <summary>Prints progress: one line rewritten in place on a terminal, plain periodic lines otherwise
/// (logs, CI, the demo script's capture).</summary>
internal sealed class ProgressLine
{
    private readonly TextWriter _output;
    private readonly bool _live;
    private int _lastLength;

    public ProgressLine(TextWriter output, bool live)
    {
        _output = output;
        _live = live;
    }

    public static string Format(TimeSpan elapsed, double readingsPerSecond, RunCounters counters) =>
        string.Create(CultureInfo.InvariantCulture,
            $"[{elapsed:hh\\:mm\\:ss}] {readingsPerSecond,9:F0} readings/s  sent {counters.Readings} readings in {counters.Events} events  errors {counters.Errors}  retries {counters.Retries}  send p50 {counters.Latency.Percentile(0.5).TotalMilliseconds:F1} ms  p99 {counters.Latency.Percentile(0.99).TotalMilliseconds:F1} ms");

    public void Write(string line)
    {
        if (_live)
        {
            // Pad over the previous line's tail: a shorter line would otherwise leave old characters behind.
            _output.Write("\r" + line.PadRight(_lastLength));
            _lastLength = line.Length;
        }
        else
        {
            _output.WriteLine(line);
        }

        _output.Flush();
    }

    /// <summary>Ends the live line so what follows starts on a fresh line.</summary>
    public void Finish()
    {
        if (_live && _lastLength > 0)
        {
            _output.WriteLine();
            _output.Flush();
        }
    }
}
