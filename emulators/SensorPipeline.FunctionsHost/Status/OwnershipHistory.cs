namespace SensorPipeline.FunctionsHost.Status;

/// <summary>A bounded in-memory history of partition ownership, written by the observing host once per observe interval
/// and read by <c>/status/functions/ownership</c> for the dashboard: per sample and function the instances (distinct
/// active owners), the cumulative owner changes and the owner of every partition. A ring of at most
/// <see cref="MaxSamples"/> samples, sized to hold <see cref="Window"/> at the observe interval (30 min at the stack's
/// 500 ms; less when the interval is shorter than 250 ms), so memory stays flat however long devhost runs. Owner arrays
/// are shared between consecutive samples while nothing moved, so a steady run costs one small object per sample.</summary>
internal sealed class OwnershipHistory
{
    /// <summary>How far back the history reaches at intervals of 250 ms and more.</summary>
    public static readonly TimeSpan Window = TimeSpan.FromMinutes(30);

    /// <summary>The ring's upper bound (7,200 samples ≈ a few hundred kB with three functions).</summary>
    public const int MaxSamples = 7_200;

    private readonly Lock _lock = new();
    private readonly OwnershipSample[] _ring;
    private int _next;
    private int _count;

    public OwnershipHistory(TimeSpan interval)
    {
        Interval = interval;
        _ring = new OwnershipSample[(int)Math.Clamp(Math.Ceiling(Window / interval), 1, MaxSamples)];
    }

    /// <summary>The time between samples (the observe interval).</summary>
    public TimeSpan Interval { get; }

    /// <summary>The ring's size.</summary>
    public int Capacity => _ring.Length;

    /// <summary>Appends a sample, overwriting the oldest when full; an owner array equal to the previous sample's is
    /// replaced by that one, so unchanged ownership is stored once.</summary>
    public void Record(DateTimeOffset time, IReadOnlyList<FunctionOwnership> functions)
    {
        lock (_lock)
        {
            var previous = _count == 0 ? null : _ring[(_next - 1 + _ring.Length) % _ring.Length];
            var shared = new FunctionOwnership[functions.Count];
            for (var i = 0; i < shared.Length; i++)
            {
                var function = functions[i];
                shared[i] = previous is not null && i < previous.Functions.Count && previous.Functions[i].Owners.AsSpan().SequenceEqual(function.Owners)
                    ? function with { Owners = previous.Functions[i].Owners }
                    : function;
            }

            _ring[_next] = new OwnershipSample(time, shared);
            _next = (_next + 1) % _ring.Length;
            _count = Math.Min(_count + 1, _ring.Length);
        }
    }

    /// <summary>The samples taken at or after <paramref name="from"/>, oldest first, with the last sample before it
    /// (null when none) so the first bin's changes have a baseline.</summary>
    public (OwnershipSample? Before, IReadOnlyList<OwnershipSample> Samples) Since(DateTimeOffset from)
    {
        lock (_lock)
        {
            OwnershipSample? before = null;
            var samples = new List<OwnershipSample>(_count);
            for (var i = 0; i < _count; i++)
            {
                var sample = _ring[(_next - _count + i + _ring.Length) % _ring.Length];
                if (sample.Time < from)
                {
                    before = sample;
                }
                else
                {
                    samples.Add(sample);
                }
            }

            return (before, samples);
        }
    }
}

/// <summary>What the observer saw at <paramref name="Time"/>, one entry per function in the host's function order.</summary>
internal sealed record OwnershipSample(DateTimeOffset Time, IReadOnlyList<FunctionOwnership> Functions);

/// <summary>One function at one sample: distinct active owners, owner changes summed over its partitions since devhost
/// started watching, and the active owner of each partition by partition index (null: none).</summary>
internal sealed record FunctionOwnership(int Instances, long Changes, string?[] Owners);
