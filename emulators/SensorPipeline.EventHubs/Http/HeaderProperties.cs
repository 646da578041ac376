using System.Globalization;
using System.Text.Json;
using Microsoft.AspNetCore.Http;

namespace SensorPipeline.EventHubs.Http;

/// <summary>A single REST event's metadata from its HTTP headers: <c>BrokerProperties</c> (JSON, PartitionKey) and
/// every other non-standard header as an application property, typed as Event Hubs does: int, long, double, bool
/// where the text parses, else string (a value in double quotes stays a string, without the quotes).</summary>
internal static class HeaderProperties
{
    // Standard HTTP headers are transport, not application properties.
    private static readonly HashSet<string> Standard = new(StringComparer.OrdinalIgnoreCase)
    {
        "Authorization", "BrokerProperties", "Host", "User-Agent", "Connection", "Keep-Alive", "Expect", "Transfer-Encoding",
        "TE", "Trailer", "Upgrade", "Cache-Control", "Pragma", "Date", "Cookie", "Origin", "Referer", "Via", "Max-Forwards",
        "Range", "Proxy-Authorization", "Proxy-Connection", "traceparent", "tracestate", "Request-Id", "Correlation-Context",
        "baggage", "Forwarded", "DNT", "Request-Context",
    };

    // x-ms-*: Azure SDK protocol headers (client request ids and the like), not the sender's properties; X-DevHost-*:
    // devhost's own plumbing (the admin header a developer's tool sends on every request).
    private static readonly string[] StandardPrefixes = ["Content-", "Accept", "If-", "Sec-", "X-Forwarded-", "x-ms-", "X-DevHost-", ":"];

    public static string? PartitionKey(HttpRequest request)
    {
        var header = request.Headers["BrokerProperties"].ToString();
        if (header.Length == 0)
        {
            return null;
        }

        try
        {
            using var document = JsonDocument.Parse(header);
            if (document.RootElement.ValueKind != JsonValueKind.Object)
            {
                throw new BatchFormatException("the BrokerProperties header must be a JSON object");
            }

            return document.RootElement.TryGetProperty("PartitionKey", out var key) && key.ValueKind != JsonValueKind.Null
                ? key.ValueKind == JsonValueKind.String ? key.GetString() : throw new BatchFormatException("BrokerProperties.PartitionKey must be a string")
                : null;
        }
        catch (JsonException e)
        {
            throw new BatchFormatException($"the BrokerProperties header is not valid JSON: {e.Message}", e);
        }
        catch (InvalidOperationException e)
        {
            // GetString checks escapes only now: a lone surrogate ("\uD800") is the sender's mistake, not a server error.
            throw new BatchFormatException($"the BrokerProperties header: {e.Message}", e);
        }
    }

    public static Dictionary<string, object?>? Read(IHeaderDictionary headers)
    {
        Dictionary<string, object?>? properties = null;
        foreach (var (name, values) in headers)
        {
            if (IsStandard(name))
            {
                continue;
            }

            properties ??= new Dictionary<string, object?>(StringComparer.Ordinal);
            properties[name] = Typed(values.ToString());
        }

        return properties;
    }

    public static object Typed(string text)
    {
        if (text.Length >= 2 && text[0] == '"' && text[^1] == '"')
        {
            return text[1..^1];
        }

        if (int.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var i))
        {
            return i;
        }

        if (long.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var l))
        {
            return l;
        }

        if (double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var d) && double.IsFinite(d))
        {
            return d;
        }

        if (bool.TryParse(text, out var b))
        {
            return b;
        }

        return text;
    }

    private static bool IsStandard(string name)
    {
        if (Standard.Contains(name))
        {
            return true;
        }

        foreach (var prefix in StandardPrefixes)
        {
            if (name.StartsWith(prefix, StringComparison.OrdinalIgnoreCase))
            {
                return true;
            }
        }

        return false;
    }
}
