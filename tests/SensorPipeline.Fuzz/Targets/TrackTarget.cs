using SensorPipeline.ApplicationInsights;

namespace SensorPipeline.Fuzz.Targets;

/// <summary>
/// A <c>/v2/track</c> body (newline-delimited envelopes) through the App Insights sink's <see cref="EnvelopeParser"/>,
/// line by line as the endpoint splits it. The parser answers every line with metrics or a reason, never an exception.
/// </summary>
internal static class TrackTarget
{
    internal static void Run(byte[] body)
    {
        var text = body.AsMemory();
        var metrics = new List<ParsedMetric>();
        while (!text.IsEmpty)
        {
            var end = text.Span.IndexOf((byte)'\n');
            var line = end < 0 ? text : text[..end];
            text = end < 0 ? default : text[(end + 1)..];
            _ = EnvelopeParser.TryParse(line, metrics);
        }
    }
}
