namespace SensorPipeline.ApplicationInsights;

/// <summary>Limits of devhost's local Application Insights endpoint (configuration section <c>Telemetry</c>).</summary>
public sealed class TelemetryIngestionOptions
{
    public const string SectionName = "Telemetry";

    /// <summary>Metric aggregates kept in memory; the oldest are dropped beyond it (and counted). Default 200000; 1000 to 10000000.
    /// At a 2 s flush and ~100 series that is over an hour of a run.</summary>
    public int MaxMetricPoints { get; set; } = 200_000;

    /// <summary>Largest accepted request body as sent (gzip-compressed), in bytes. Default 8388608 (8 MiB); 1 KiB to 256 MiB.
    /// The SDK's channels send at most a few MB per request.</summary>
    public long MaxRequestBytes { get; set; } = 8L * 1024 * 1024;

    /// <summary>Largest telemetry item (one line of the body), in bytes; a larger one is refused alone (206 with its
    /// index), as the service refuses an item over its maximum telemetry item size, 64 KB ("Azure Monitor service
    /// limits", Application Insights). Default 65536; 1024 to 1048576.</summary>
    public int MaxItemBytes { get; set; } = 64 * 1024;

    /// <summary>Bytes the kept metric points may hold in memory, estimated from their strings and dimensions (a point
    /// counts every dimension it refers to, shared or not); the oldest points go first beyond it. Default 268435456
    /// (256 MiB); 1 MiB to 16 GiB.</summary>
    public long MaxStoredBytes { get; set; } = 256L * 1024 * 1024;

    /// <summary>Largest body after decompression, in bytes: the bound against a gzip bomb. Default 67108864 (64 MiB); at least
    /// <see cref="MaxRequestBytes"/>, at most 1 GiB.</summary>
    public long MaxDecompressedBytes { get; set; } = 64L * 1024 * 1024;
}
