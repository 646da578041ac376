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

    /// <summary>Largest body after decompression, in bytes: the bound against a gzip bomb. Default 67108864 (64 MiB); at least
    /// <see cref="MaxRequestBytes"/>, at most 1 GiB.</summary>
    public long MaxDecompressedBytes { get; set; } = 64L * 1024 * 1024;
}
