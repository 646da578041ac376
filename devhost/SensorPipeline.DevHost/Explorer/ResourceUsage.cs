using System.Globalization;

namespace SensorPipeline.DevHost.Explorer;

/// <summary>Cosmos DB's <c>x-ms-resource-usage</c> header (<c>documentsCount=12;documentsSize=34;…</c>, sizes in KB),
/// as the account answers a container read with quota info asked for.</summary>
public static class ResourceUsage
{
    /// <summary>The header's numeric members; none for an absent header.</summary>
    public static IEnumerable<(string Name, long Value)> Parse(string? header)
    {
        foreach (var part in (header ?? "").Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            var equals = part.IndexOf('=', StringComparison.Ordinal);
            if (equals > 0 && long.TryParse(part.AsSpan(equals + 1), NumberStyles.Integer, CultureInfo.InvariantCulture, out var value))
            {
                yield return (part[..equals], value);
            }
        }
    }
}
