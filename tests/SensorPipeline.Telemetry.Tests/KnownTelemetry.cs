using Microsoft.ApplicationInsights;
using Microsoft.ApplicationInsights.Extensibility;
using SensorPipeline.Core.DeadLetters;
using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Splitting;

namespace SensorPipeline.Telemetry.Tests;

/// <summary>
/// A known run: the handler's real <see cref="PipelineMetrics"/> on the real SDK, pointed at a devhost-like server,
/// fed with fixed batches and latencies. Expected figures are computed here from the raw values, independently of
/// the bucket arithmetic (sorted list, nearest rank), so the test checks the whole path: SDK → gzip → /v2/track →
/// store → summary (→ dashboard).
/// </summary>
internal sealed class KnownTelemetry : IDisposable
{
    /// <summary>The run's clock, whole seconds: recent, because aggregates are stamped with their period's start on this
    /// clock and the summary only reads the last hour.</summary>
    public static readonly DateTimeOffset Now = DateTimeOffset.FromUnixTimeSeconds(DateTimeOffset.UtcNow.ToUnixTimeSeconds());

    private readonly TelemetryConfiguration _configuration;

    public KnownTelemetry(string connectionString)
    {
        Clock = new FixedClock(Now);
        _configuration = TelemetryExtensions.CreateConfiguration(new TelemetryOptions { ConnectionString = connectionString, MetricFlushInterval = TimeSpan.FromSeconds(1) });
        Client = new TelemetryClient(_configuration);
        Metrics = new PipelineMetrics(Client, Clock);
    }

    public FixedClock Clock { get; }

    public TelemetryClient Client { get; }

    public PipelineMetrics Metrics { get; }

    /// <summary>Weather end-to-end latencies in ms: 3 + i²/2 for i = 1..200 (integers, skewed like real latency), plus two outliers.</summary>
    public static IReadOnlyList<long> WeatherLatencies { get; } = [.. Enumerable.Range(1, 200).Select(i => 3L + (i * i / 2)), 45_000, 700_000];

    public const int SplitterEvents = 15;
    public const int SplitterReadings = 60;
    public const long SplitterFreshnessMaxMs = 2_500;
    public const int WeatherEvents = 4;
    public const int WeatherStale = 3;
    public const int WeatherDeadLetters = 3;
    public const int CosmosCalls = 10;
    public const double CosmosRuPerCall = 5.5;
    public const int CosmosThrottledRetries = 2;

    public static int WeatherReadings => WeatherLatencies.Count + WeatherDeadLetters;

    /// <summary>Nearest rank on the raw values, then the upper bound of that value's bucket (what "exact to one bucket"
    /// promises), clamped to the exact max as the dashboard and the KQL do.</summary>
    public static double ExpectedWeatherPercentile(double p)
    {
        var sorted = WeatherLatencies.Order().ToArray();
        var rank = (int)Math.Ceiling(p * sorted.Length);
        return Math.Min(LatencyBuckets.UpperBoundMs(LatencyBuckets.Index(sorted[rank - 1])), sorted[^1]);
    }

    /// <summary>Feeds the run and sends it: Cut ends the aggregation period, Flush makes the channel post synchronously.</summary>
    public void FeedAndFlush()
    {
        var m = Metrics;
        m.BatchReceived("Splitter", "0", Events("0", 10, Now.AddMilliseconds(-SplitterFreshnessMaxMs)), 40, Now);
        m.BatchReceived("Splitter", "1", Events("1", 5, Now.AddMilliseconds(-800)), 20, Now);
        m.InvocationCompleted("Splitter", TimeSpan.FromMilliseconds(20));
        m.InvocationCompleted("Splitter", TimeSpan.FromMilliseconds(30));

        m.BatchReceived("WeatherProcessor", "0", Events("0", WeatherEvents, Now.AddMilliseconds(-1_000)), WeatherReadings, Now);
        var observedLag = 250;
        foreach (var latency in WeatherLatencies)
        {
            var enqueued = Now.ToUnixTimeMilliseconds() - latency;
            m.ReadingWritten("WeatherProcessor", "0", enqueued, enqueued - observedLag);
        }

        m.BatchStored("WeatherProcessor", "0", WeatherLatencies.Count, WeatherStale);
        m.DeadLettered("WeatherProcessor", [DeadLetter(DeadLetterReason.InvalidCoordinates), DeadLetter(DeadLetterReason.InvalidCoordinates), DeadLetter(DeadLetterReason.ZeroSequence)]);
        m.InvocationCompleted("WeatherProcessor", TimeSpan.FromMilliseconds(120), failure: "store-unavailable");
        for (var i = 0; i < CosmosCalls; i++)
        {
            m.CosmosCall("readings", "upsert", TimeSpan.FromMilliseconds(10 + i), CosmosRuPerCall, 200);
        }

        for (var i = 0; i < CosmosThrottledRetries; i++)
        {
            m.CosmosRetry("readings", 429);
        }

        m.Cut();
        Client.Flush();
    }

    private static InputEvent[] Events(string partition, int count, DateTimeOffset oldest) =>
        [.. Enumerable.Range(0, count).Select(i => new InputEvent(ReadOnlyMemory<byte>.Empty, new SourcePosition(partition, i, oldest.AddMilliseconds(i * 10).ToUnixTimeMilliseconds())))];

    private static DeadLetter DeadLetter(DeadLetterReason reason) => new("weather-processor", reason, new SourcePosition("0", 1, 0), 0, "d", ReadOnlyMemory<byte>.Empty);

    public void Dispose()
    {
        _configuration.Dispose();
    }
}
