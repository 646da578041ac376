using System.Text.RegularExpressions;

namespace SensorPipeline.Toolkit;

/// <summary>
/// Counts the Storage requests azurite served, from its debug log (<see cref="AzuriteProcess.StartAsync(string, RepoLayout?, int, string?, string?, bool, IReadOnlyCollection{string}?, CancellationToken)"/>
/// with a debug log): azurite writes one <c>BlobStorageContextMiddleware: RequestMethod=… RequestURL=…</c> line per
/// request it receives. Each is classed by the blob it names in the Functions extension's layout (an ownership or a
/// checkpoint blob) or as a listing or container request.
/// </summary>
public static partial class AzuriteRequestLog
{
    /// <summary>Where the log ends now: count from here after the measured work.</summary>
    public static long Mark(string logPath) => File.Exists(logPath) ? new FileInfo(logPath).Length : 0;

    /// <summary>Requests logged after <paramref name="offset"/>, by "METHOD kind" (kind: ownership, checkpoint, list,
    /// container, other).</summary>
    public static async Task<IReadOnlyDictionary<string, long>> CountSinceAsync(string logPath, long offset, CancellationToken cancellationToken)
    {
        var counts = new SortedDictionary<string, long>(StringComparer.Ordinal);
        await using var stream = new FileStream(logPath, FileMode.Open, FileAccess.Read, FileShare.ReadWrite);
        stream.Seek(Math.Min(offset, stream.Length), SeekOrigin.Begin);
        using var reader = new StreamReader(stream);
        while (await reader.ReadLineAsync(cancellationToken) is { } line)
        {
            if (Request().Match(line) is { Success: true } match)
            {
                var key = match.Groups["method"].Value + " " + Kind(match.Groups["url"].Value);
                counts[key] = counts.GetValueOrDefault(key) + 1;
            }
        }

        return counts;
    }

    private static string Kind(string url) =>
        url.Contains("/ownership/", StringComparison.Ordinal) ? "ownership"
        : url.Contains("/checkpoint/", StringComparison.Ordinal) ? "checkpoint"
        : url.Contains("comp=list", StringComparison.Ordinal) ? "list"
        : url.Contains("restype=container", StringComparison.Ordinal) ? "container"
        : "other";

    [GeneratedRegex(@"BlobStorageContextMiddleware: RequestMethod=(?<method>[A-Z]+) RequestURL=(?<url>\S+)")]
    private static partial Regex Request();
}
