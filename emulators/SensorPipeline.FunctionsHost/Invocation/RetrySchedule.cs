using SensorPipeline.FunctionsHost.Config;

namespace SensorPipeline.FunctionsHost.Invocation;

/// <summary>The delays between attempts of one failing batch, as the WebJobs SDK computes them
/// (FixedDelayRetryAttribute; ExponentialBackoffRetryAttribute over RandomizedExponentialBackoffStrategy with the
/// minimum interval as the backoff step and ±20% randomization). One instance per batch: the SDK keeps this state
/// in the RetryContext, in memory only, so a restart starts the schedule again.</summary>
internal sealed class RetrySchedule(RetryPolicy policy, Random random)
{
    private const double RandomizationFactor = 0.2;
    private TimeSpan _current = policy.MinimumInterval;
    private int _exponent;

    /// <summary>True when another attempt is allowed after <paramref name="retriesSoFar"/> retries.</summary>
    public bool CanRetry(int retriesSoFar) => policy.MaxRetryCount == -1 || retriesSoFar < policy.MaxRetryCount;

    /// <summary>The wait before the next attempt.</summary>
    public TimeSpan NextDelay()
    {
        if (policy.Strategy == RetryStrategy.FixedDelay)
        {
            return policy.DelayInterval;
        }

        if (_current == policy.MaximumInterval && _exponent > 0)
        {
            return _current;
        }

        var next = policy.MinimumInterval;
        if (_exponent > 0)
        {
            var factor = (1.0 - RandomizationFactor) + (random.NextDouble() * 2 * RandomizationFactor);
            next += TimeSpan.FromMilliseconds(factor * Math.Pow(2.0, _exponent - 1) * policy.MinimumInterval.TotalMilliseconds);
        }

        if (next < policy.MaximumInterval)
        {
            _current = next;
            _exponent++;
        }
        else
        {
            _current = policy.MaximumInterval;
            _exponent = Math.Max(_exponent, 1);
        }

        return _current;
    }
}
