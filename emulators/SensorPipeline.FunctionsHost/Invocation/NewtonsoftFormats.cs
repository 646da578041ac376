using System.Globalization;
using System.Text.Encodings.Web;
using System.Text.Json;

namespace SensorPipeline.FunctionsHost.Invocation;

/// <summary>The value formats the Functions host's Newtonsoft.Json serializer produces, reproduced with
/// Utf8JsonWriter so a handler sees the same text here as in Azure.</summary>
internal static class NewtonsoftFormats
{
    /// <summary>Newtonsoft escapes only quotes, backslashes and control characters; it never escapes '+', '&lt;' or
    /// non-ASCII text as System.Text.Json's default encoder would.</summary>
    public static readonly JsonWriterOptions Compact = new() { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping, SkipValidation = false };

    /// <summary>JToken.ToString(): two-space indentation, "\n" line ends on Linux (where Flex Consumption runs).</summary>
    public static readonly JsonWriterOptions Indented = new() { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping, Indented = true, NewLine = "\n" };

    /// <summary>A DateTime of unspecified kind (what EventData.EnqueuedTime.DateTime gives): ISO 8601, trailing zero
    /// fractions trimmed, no offset suffix. The enqueued time itself is UTC.</summary>
    public static string UnspecifiedDateTime(DateTime value) =>
        value.ToString("yyyy'-'MM'-'dd'T'HH':'mm':'ss.FFFFFFF", CultureInfo.InvariantCulture);

    /// <summary>A UTC DateTime: as above with a "Z" suffix.</summary>
    public static string UtcDateTime(DateTime value) => UnspecifiedDateTime(value) + "Z";

    /// <summary>A DateTimeOffset: as above with "+00:00"-style offset.</summary>
    public static string DateTimeOffsetText(DateTimeOffset value) =>
        value.ToString("yyyy'-'MM'-'dd'T'HH':'mm':'ss.FFFFFFFzzz", CultureInfo.InvariantCulture);

    /// <summary>Writes <see cref="UnspecifiedDateTime"/> (or <see cref="UtcDateTime"/>) as a string value without
    /// allocating: the hot path writes three dates per event.</summary>
    public static void WriteDateTime(Utf8JsonWriter writer, DateTime value, bool utcSuffix)
    {
        Span<byte> text = stackalloc byte[28];
        value.Deconstruct(out var year, out var month, out var day);
        int hour = value.Hour, minute = value.Minute, second = value.Second;
        Digits(text[..4], year);
        text[4] = (byte)'-';
        Digits(text.Slice(5, 2), month);
        text[7] = (byte)'-';
        Digits(text.Slice(8, 2), day);
        text[10] = (byte)'T';
        Digits(text.Slice(11, 2), hour);
        text[13] = (byte)':';
        Digits(text.Slice(14, 2), minute);
        text[16] = (byte)':';
        Digits(text.Slice(17, 2), second);
        var length = 19;
        var fraction = (int)(value.Ticks % TimeSpan.TicksPerSecond);
        if (fraction != 0)
        {
            text[length++] = (byte)'.';
            Digits(text.Slice(length, 7), fraction);
            length += 7;
            while (text[length - 1] == (byte)'0')
            {
                length--;
            }
        }

        if (utcSuffix)
        {
            text[length++] = (byte)'Z';
        }

        writer.WriteStringValue(text[..length]);
    }

    private static void Digits(Span<byte> destination, int value)
    {
        for (var i = destination.Length - 1; i >= 0; i--)
        {
            destination[i] = (byte)('0' + (value % 10));
            value /= 10;
        }
    }

    /// <summary>Event Hubs stamps enqueued times with AMQP timestamps: millisecond precision.</summary>
    public static DateTime EnqueuedTimeUtc(DateTimeOffset enqueued)
    {
        var utc = enqueued.UtcDateTime;
        return new DateTime(utc.Ticks - (utc.Ticks % TimeSpan.TicksPerMillisecond), DateTimeKind.Utc);
    }

    /// <summary>Writes an application property value as Newtonsoft would serialize the boxed value.</summary>
    public static void WritePropertyValue(Utf8JsonWriter writer, object? value)
    {
        switch (value)
        {
            case null:
                writer.WriteNullValue();
                break;
            case string s:
                writer.WriteStringValue(s);
                break;
            case bool b:
                writer.WriteBooleanValue(b);
                break;
            case int i:
                writer.WriteNumberValue(i);
                break;
            case long l:
                writer.WriteNumberValue(l);
                break;
            case double d when double.IsFinite(d) && d == Math.Floor(d) && Math.Abs(d) < 1e15:
                // Newtonsoft keeps a double recognisable as one: 1.0, not 1.
                writer.WriteRawValue(d.ToString("0.0", CultureInfo.InvariantCulture));
                break;
            case double d:
                writer.WriteNumberValue(d);
                break;
            case DateTimeOffset dto:
                writer.WriteStringValue(DateTimeOffsetText(dto));
                break;
            case DateTime dt:
                writer.WriteStringValue(dt.Kind == DateTimeKind.Utc ? UtcDateTime(dt) : UnspecifiedDateTime(dt));
                break;
            case Guid g:
                writer.WriteStringValue(g);
                break;
            case byte[] bytes:
                writer.WriteBase64StringValue(bytes);
                break;
            case IFormattable formattable:
                writer.WriteStringValue(formattable.ToString(null, CultureInfo.InvariantCulture));
                break;
            default:
                writer.WriteStringValue(value.ToString());
                break;
        }
    }
}
