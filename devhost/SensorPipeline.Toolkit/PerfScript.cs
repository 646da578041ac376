using System.Globalization;
using System.Text.RegularExpressions;

namespace SensorPipeline.Toolkit;

/// <summary>One frame of a sampled stack: its symbol (<c>[unknown]</c> when perf could not name it; a managed method
/// as the runtime's perf map names it) and the module perf found it in (a library path, <c>[kernel.kallsyms]</c>,
/// <c>/tmp/perf-PID.map</c> for JIT'd code).</summary>
public sealed record PerfFrame(string Symbol, string Module);

/// <summary>One sample of <c>perf script</c>: the thread's name (the kernel's comm, 15 characters at most: <c>.NET TP
/// Worker</c>, <c>.NET Server GC</c>), its id, and the stack leaf first.</summary>
public sealed record PerfSample(string Thread, int ThreadId, IReadOnlyList<PerfFrame> Frames);

/// <summary>Reads the default text output of <c>perf script</c> for a recording made with <c>-g</c>: a header line per
/// sample (<c>comm pid/tid [cpu] time: period event:</c>, the pid, cpu and period optional), then one indented line per
/// frame (<c>address symbol+offset (module)</c>), then a blank line.</summary>
public static partial class PerfScript
{
    public static IEnumerable<PerfSample> Parse(TextReader reader)
    {
        ArgumentNullException.ThrowIfNull(reader);
        (string Thread, int Tid)? header = null;
        var frames = new List<PerfFrame>();
        while (reader.ReadLine() is { } line)
        {
            if (line.Length == 0 || line.StartsWith('#'))
            {
                if (header is { } h)
                {
                    yield return new PerfSample(h.Thread, h.Tid, frames);
                    header = null;
                    frames = [];
                }

                continue;
            }

            if (!char.IsWhiteSpace(line[0]))
            {
                header = ParseHeader(line);
            }
            else if (header is not null && ParseFrame(line) is { } frame)
            {
                frames.Add(frame);
            }
        }

        if (header is { } last)
        {
            yield return new PerfSample(last.Thread, last.Tid, frames);
        }
    }

    private static (string Thread, int Tid) ParseHeader(string line)
    {
        var match = HeaderPattern().Match(line);
        if (!match.Success)
        {
            throw new FormatException($"perf script: not a sample header: '{line}'");
        }

        return (match.Groups["comm"].Value, int.Parse(match.Groups["tid"].Value, CultureInfo.InvariantCulture));
    }

    private static PerfFrame? ParseFrame(string line)
    {
        var match = FramePattern().Match(line);
        if (!match.Success)
        {
            return null;
        }

        var symbol = match.Groups["sym"].Value;
        // perf appends "+0x1d" to a symbol it resolved; the offset says nothing of the stage.
        var plus = symbol.LastIndexOf("+0x", StringComparison.Ordinal);
        return new PerfFrame(plus > 0 ? symbol[..plus] : symbol, match.Groups["dso"].Value);
    }

    // "comm" may hold spaces (".NET TP Worker"); the first number followed by "/" or by a time is the pid or tid.
    [GeneratedRegex(@"^(?<comm>.+?)\s+(?:(?<pid>\d+)/)?(?<tid>\d+)\s+(?:\[\d+\]\s+)?\d+\.\d+:")]
    private static partial Regex HeaderPattern();

    // The module is the last parenthesized group; a managed symbol holds parentheses of its own.
    [GeneratedRegex(@"^\s+(?<addr>[0-9a-fA-F]+)\s+(?<sym>.*)\s+\((?<dso>[^()]*)\)\s*$")]
    private static partial Regex FramePattern();
}
