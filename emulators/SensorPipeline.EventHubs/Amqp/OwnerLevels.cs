using Microsoft.Azure.Amqp;

namespace SensorPipeline.EventHubs.Amqp;

/// <summary>Exclusive receivers per consumer group and partition, as Event Hubs' owner level (epoch): a receiver with an
/// owner level closes every receiver of the same group and partition with a lower or equal one, and every receiver
/// without one, with <c>amqp:link:stolen</c> (the SDKs report ConsumerDisconnected); a receiver whose owner level is
/// lower than the current owner's, or that has none while an owner exists, is refused with the same condition.</summary>
internal sealed class OwnerLevels
{
    private readonly Lock _lock = new();
    private readonly Dictionary<string, List<(AmqpLink Link, long? Level)>> _readers = new(StringComparer.OrdinalIgnoreCase);

    /// <summary>Receivers registered now, over every consumer group and partition (a closed link must leave).</summary>
    public int Receivers
    {
        get
        {
            lock (_lock)
            {
                return _readers.Values.Sum(r => r.Count);
            }
        }
    }

    /// <summary>Registers <paramref name="link"/>; throws the refusal, or closes the links it displaces.</summary>
    public void Join(string key, AmqpLink link, long? level)
    {
        List<AmqpLink> displaced;
        lock (_lock)
        {
            if (!_readers.TryGetValue(key, out var readers))
            {
                _readers[key] = readers = [];
            }

            var owner = readers.Where(r => r.Level is not null).Select(r => r.Level).Max();
            if (owner is not null && (level is null || level < owner))
            {
                throw new AmqpException(AmqpErrorCode.Stolen,
                    $"Receiver refused: a receiver with owner level (epoch) {owner} is active on {key}; this one has {(level is null ? "none" : level.ToString())}.");
            }

            displaced = level is null ? [] : readers.Select(r => r.Link).ToList();
            readers.RemoveAll(r => level is not null);
            readers.Add((link, level));
        }

        link.Closed += (_, _) => Leave(key, link);
        if (link.State is AmqpObjectState.End or AmqpObjectState.Faulted)
        {
            // Closed while its attach was resolving its start position: the event fired before the subscription.
            Leave(key, link);
        }

        foreach (var old in displaced)
        {
            old.SafeClose(new AmqpException(AmqpErrorCode.Stolen,
                $"New receiver with higher epoch of '{level}' is created hence current receiver is getting disconnected. Owner level {level} took over {key}."));
        }
    }

    private void Leave(string key, AmqpLink link)
    {
        lock (_lock)
        {
            if (_readers.TryGetValue(key, out var readers))
            {
                readers.RemoveAll(r => ReferenceEquals(r.Link, link));
                if (readers.Count == 0)
                {
                    _readers.Remove(key);
                }
            }
        }
    }
}
