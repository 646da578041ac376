namespace SensorPipeline.DevHost.Explorer;

/// <summary>The explorer's bounds (section <c>Explorer</c>, <c>--set Explorer__Key=Value</c>): every peek and query
/// stops at the first of its count, bytes and time, so a page cannot stall the stack it looks at. Validated at start by
/// <see cref="ExplorerOptionsValidator"/>.</summary>
public sealed class ExplorerOptions
{
    /// <summary>The configuration section.</summary>
    public const string SectionName = "Explorer";

    /// <summary>Most events one peek returns. Default 100, from 1 to 1000.</summary>
    public int MaxPeekEvents { get; set; } = 100;

    /// <summary>Most body bytes one peek returns (an event that would pass it ends the peek; the first event always
    /// fits, as the bound is at least Event Hubs' 1 MiB event). Default 4 MiB, from 1 MiB to 64 MiB.</summary>
    public long MaxPeekBytes { get; set; } = 4L * 1024 * 1024;

    /// <summary>Most rows one Cosmos DB query returns. Default 200, from 1 to 1000.</summary>
    public int MaxQueryItems { get; set; } = 200;

    /// <summary>Most response bytes one Cosmos DB query reads. Default 4 MiB, from 64 KiB to 64 MiB.</summary>
    public long MaxQueryBytes { get; set; } = 4L * 1024 * 1024;

    /// <summary>Longest one peek or query runs before it returns what it has. Default 00:00:05, from 00:00:00.100 to 00:01:00.</summary>
    public TimeSpan MaxTime { get; set; } = TimeSpan.FromSeconds(5);
}
