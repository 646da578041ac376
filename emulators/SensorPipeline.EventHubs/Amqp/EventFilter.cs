using System.Globalization;
using System.Text.RegularExpressions;
using Microsoft.Azure.Amqp.Encoding;
using Microsoft.Azure.Amqp.Framing;

namespace SensorPipeline.EventHubs.Amqp;

/// <summary>Where a receiver starts, from its source's selector filter
/// (<c>amqp.annotation.x-opt-offset &gt; -1</c>, <c>… &gt;= '12'</c>, <c>… &gt; @latest</c>,
/// <c>amqp.annotation.x-opt-sequence-number &gt;= 5</c>, <c>amqp.annotation.x-opt-enqueued-time &gt; 1700000000000</c>).
/// The .NET client sends the value bare under descriptor 0x137000000A; the Node client quotes it under 0x468C00000004;
/// both, and the symbolic descriptor, are read. No filter means the start of the partition.</summary>
internal static partial class EventFilter
{
    public enum Kind
    {
        Earliest,
        Latest,
        Offset,
        SequenceNumber,
        EnqueuedTime,
    }

    public readonly record struct Position(Kind Kind, long Value, bool Inclusive);

    /// <exception cref="FormatException">A filter the endpoint does not understand; the text says which.</exception>
    public static Position Parse(Source? source)
    {
        if (source?.FilterSet is not { Count: > 0 } filters)
        {
            return new Position(Kind.Earliest, 0, true);
        }

        foreach (var (_, value) in filters)
        {
            var text = value switch
            {
                DescribedType { Value: string s } => s,
                string s => s,
                _ => null,
            };
            if (text is not null && Expression().Match(text) is { Success: true } match)
            {
                return ToPosition(match, text);
            }
        }

        throw new FormatException("The receiver's filter is not an Event Hubs position (amqp.annotation.x-opt-offset, x-opt-sequence-number or x-opt-enqueued-time with > or >=).");
    }

    private static Position ToPosition(Match match, string text)
    {
        var inclusive = match.Groups["op"].Value == ">=";
        var raw = match.Groups["value"].Value;
        var field = match.Groups["field"].Value;
        if (field == "x-opt-offset" && raw == "@latest")
        {
            return new Position(Kind.Latest, 0, false);
        }

        if (!long.TryParse(raw, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var number))
        {
            throw new FormatException($"The receiver's filter '{text}' does not hold a whole number.");
        }

        return field switch
        {
            "x-opt-offset" when number < 0 => new Position(Kind.Earliest, 0, true),
            "x-opt-offset" => new Position(Kind.Offset, number, inclusive),
            "x-opt-sequence-number" => new Position(Kind.SequenceNumber, number, inclusive),
            _ => new Position(Kind.EnqueuedTime, number, inclusive),
        };
    }

    [GeneratedRegex(@"^\s*amqp\.annotation\.(?<field>x-opt-offset|x-opt-sequence-number|x-opt-enqueued-time)\s*(?<op>>=|>)\s*'?(?<value>[^'\s]+)'?\s*$", RegexOptions.CultureInvariant)]
    private static partial Regex Expression();
}
