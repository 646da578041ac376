namespace SensorPipeline.CosmosEmulator.Throttling;

/// <summary>
/// A container's request-unit budget as the service enforces provisioned throughput: a bucket holding at most one
/// second of budget, refilled continuously. A request is admitted while the bucket is not empty and charged its
/// cost afterwards (so one expensive request may take it below zero, as the service does); while it is below zero
/// requests get 429 with the time until it refills above zero. A rate of 0 means unlimited.
/// </summary>
internal sealed class TokenBucket(double requestUnitsPerSecond, TimeProvider time)
{
    private readonly Lock _gate = new();
    private double _rate = requestUnitsPerSecond;
    private double _tokens = requestUnitsPerSecond;
    private long _refilledAt = time.GetTimestamp();

    /// <summary>RU per second; 0 = unlimited.</summary>
    public double RequestUnitsPerSecond
    {
        get => _rate;
        set
        {
            lock (_gate)
            {
                _rate = value;
                _tokens = value;
                _refilledAt = time.GetTimestamp();
            }
        }
    }

    /// <summary>Whether a request may run now; when not, how long until it may (milliseconds, at least 1).</summary>
    public bool TryAdmit(out int retryAfterMs)
    {
        retryAfterMs = 0;
        if (_rate <= 0)
        {
            return true;
        }

        lock (_gate)
        {
            Refill();
            if (_tokens > 0)
            {
                return true;
            }

            retryAfterMs = (int)Math.Clamp(Math.Ceiling((-_tokens + 1) / _rate * 1000), 1, 60_000);
            return false;
        }
    }

    /// <summary>Takes a completed request's charge from the bucket.</summary>
    public void Charge(double requestUnits)
    {
        if (_rate <= 0)
        {
            return;
        }

        lock (_gate)
        {
            Refill();
            _tokens -= requestUnits;
        }
    }

    private void Refill()
    {
        var now = time.GetTimestamp();
        var elapsed = time.GetElapsedTime(_refilledAt, now).TotalSeconds;
        _refilledAt = now;
        _tokens = Math.Min(_rate, _tokens + (elapsed * _rate));
    }
}
