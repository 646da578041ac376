using SensorPipeline.Clients;
using SensorPipeline.Emulators.Common;

namespace SensorPipeline.CosmosEmulator.Hosting;

/// <summary>The emulator's settings, bound from the configuration section <c>Cosmos</c> (e.g. <c>Cosmos__Durability=None</c>
/// or <c>--set Cosmos:Durability=None</c>); validated at start-up by <see cref="CosmosEmulatorOptionsValidator"/>.</summary>
public sealed class CosmosEmulatorOptions
{
    /// <summary>The configuration section these options bind from.</summary>
    public const string SectionName = "Cosmos";

    /// <summary>The master key requests are signed with (base64). Default the well-known emulator key; must decode
    /// from base64 to at least 16 bytes.</summary>
    public string AccountKey { get; set; } = CosmosEmulatorAccount.Key;

    /// <summary>When a write is acknowledged relative to the disk (the Event Hubs emulator's modes). Default
    /// <see cref="DurabilityMode.Always"/>: fsync before the answer, concurrent writes sharing one fsync.</summary>
    public DurabilityMode Durability { get; set; } = DurabilityMode.Always;

    /// <summary>With <see cref="DurabilityMode.Interval"/>: the longest time a written mutation waits for an fsync.
    /// Default 00:00:00.100 (100 ms); from 1 ms to 1 minute.</summary>
    public TimeSpan FlushInterval { get; set; } = TimeSpan.FromMilliseconds(100);

    /// <summary>The log is rewritten as a snapshot of the live data once it exceeds this many bytes and twice the live
    /// data's size (so start-up replays little more than the data itself). Default 67,108,864 (64 MiB); at least 1 MiB.</summary>
    public long CompactionThresholdBytes { get; set; } = 64L * 1024 * 1024;

    /// <summary>The request-unit budget of every container, in RU per second (a token bucket holding one second of
    /// budget); requests beyond it get 429 with <c>x-ms-retry-after-ms</c>. Default 0 (unlimited); at most 1,000,000.</summary>
    public double ThroughputPerContainer { get; set; }

    /// <summary>How often expired documents (TTL) are purged from memory; they are invisible from the moment they
    /// expire. Default 00:00:05 (5 s); from 100 ms to 1 hour.</summary>
    public TimeSpan TimeToLivePurgeInterval { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>How many physical partition key ranges each container with a hash-version-2 partition key is served as
    /// (the SDKs' default; other containers get one). Keys are placed by the SDKs' own hash, the ranges split the key
    /// space evenly, and the SDKs read them from <c>pkranges</c> and group bulk and cross-partition queries by range as
    /// in Azure. Default 1; from 1 to 1,024.</summary>
    public int PartitionKeyRanges { get; set; } = 1;

    /// <summary>Most documents one query page returns when the client sets no <c>x-ms-max-item-count</c>.
    /// Default 100 (the service's default); from 1 to 10,000.</summary>
    public int DefaultPageSize { get; set; } = 100;
}
