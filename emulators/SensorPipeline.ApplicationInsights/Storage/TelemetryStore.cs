using Microsoft.Extensions.Logging;

namespace SensorPipeline.ApplicationInsights.Storage;

/// <summary>
/// What the local ingestion endpoint received: the metric aggregates (bounded in count and in estimated bytes: the
/// oldest go first) and the byte and item counters the cost figure is computed from. Thread-safe; readers get snapshots.
/// </summary>
public sealed class TelemetryStore(IOptions<TelemetryIngestionOptions> options, TimeProvider clock, ILogger<TelemetryStore> logger)
{
    private readonly Lock _lock = new();
    private readonly Queue<MetricPoint> _points = new();
    private readonly int _capacity = options.Value.MaxMetricPoints;
    private readonly long _capacityBytes = options.Value.MaxStoredBytes;
    private long _bytes;
    private long _sequence;
    private long _evicted;
    private IngestionCounters _counters = new(0, 0, 0, 0, 0, 0, 0, null, null);

    /// <summary>Records one POST: its bytes as sent and decompressed, and every item in it.</summary>
    internal void Add(long compressedBytes, long uncompressedBytes, int itemsReceived, int itemsRejected, IReadOnlyList<ParsedMetric> metrics)
    {
        var now = clock.GetUtcNow();
        var warnEvicted = false;
        lock (_lock)
        {
            foreach (var m in metrics)
            {
                var point = new MetricPoint(++_sequence, m.Time, now, m.Name, m.Sum, m.Count, m.Min, m.Max, m.IntervalMs, m.RoleInstance, m.Dimensions);
                var size = SizeOf(point);
                while (_points.Count > 0 && (_points.Count >= _capacity || _bytes + size > _capacityBytes))
                {
                    _bytes -= SizeOf(_points.Dequeue());
                    warnEvicted |= _evicted == 0;
                    _evicted++;
                }

                _points.Enqueue(point);
                _bytes += size;
            }

            var c = _counters;
            _counters = c with
            {
                Requests = c.Requests + 1,
                ItemsReceived = c.ItemsReceived + itemsReceived,
                ItemsAccepted = c.ItemsAccepted + itemsReceived - itemsRejected,
                MetricItems = c.MetricItems + metrics.Count,
                OtherItems = c.OtherItems + (itemsReceived - itemsRejected - metrics.Count),
                BytesCompressed = c.BytesCompressed + compressedBytes,
                BytesUncompressed = c.BytesUncompressed + uncompressedBytes,
                FirstRequestAt = c.FirstRequestAt ?? now,
                LastRequestAt = now,
            };
        }

        if (warnEvicted)
        {
            DevHostTelemetryLog.Evicted(logger, _capacity, _capacityBytes);
        }
    }

    /// <summary>Estimated bytes a kept point holds: the record, its strings (UTF-16 with object headers) and every
    /// dimension it refers to — counted per point even when an envelope's points share them, so the bound holds.</summary>
    private static long SizeOf(MetricPoint point)
    {
        static long Text(string? s) => s is null ? 0 : 24 + (2L * s.Length);

        var size = 160 + Text(point.Name) + Text(point.RoleInstance);
        foreach (var (key, value) in point.Dimensions)
        {
            size += 32 + Text(key) + Text(value);
        }

        return size;
    }

    /// <summary>Byte and item counters since start.</summary>
    public IngestionCounters Counters
    {
        get
        {
            lock (_lock)
            {
                return _counters;
            }
        }
    }

    /// <summary>Metric points dropped because the store was full.</summary>
    public long Evicted
    {
        get
        {
            lock (_lock)
            {
                return _evicted;
            }
        }
    }

    /// <summary>The points whose period started at or after <paramref name="since"/> (and before <paramref name="until"/>)
    /// and that arrived after sequence <paramref name="after"/>, optionally of one metric, at most <paramref name="limit"/>,
    /// oldest first.</summary>
    public IReadOnlyList<MetricPoint> Query(DateTimeOffset? since = null, long after = 0, string? name = null, int limit = int.MaxValue, DateTimeOffset? until = null)
    {
        var result = new List<MetricPoint>();
        lock (_lock)
        {
            foreach (var p in _points)
            {
                if (result.Count >= limit)
                {
                    break;
                }

                if (p.Sequence > after && (since is null || p.Time >= since) && (until is null || p.Time < until) && (name is null || string.Equals(p.Name, name, StringComparison.Ordinal)))
                {
                    result.Add(p);
                }
            }
        }

        return result;
    }
}

/// <summary>Totals since devhost started: requests, items, and bytes as sent (gzip) and decompressed.</summary>
public sealed record IngestionCounters(
    long Requests,
    long ItemsReceived,
    long ItemsAccepted,
    long MetricItems,
    long OtherItems,
    long BytesCompressed,
    long BytesUncompressed,
    DateTimeOffset? FirstRequestAt,
    DateTimeOffset? LastRequestAt);
