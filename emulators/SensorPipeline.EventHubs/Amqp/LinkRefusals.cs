using Microsoft.Extensions.Logging;

namespace SensorPipeline.EventHubs.Amqp;

/// <summary>
/// The refused attaches of one connection, as devhost logs them (rule A11): the first refusal of each kind (address
/// and reason) is logged as it comes; its repeats are counted, and the count is logged on the first repeat once
/// <see cref="SummaryInterval"/> has passed since the last line for that kind, and when the connection closes. A
/// client that retries a refused attach at once (the .NET buffered producer with idempotent retries, hundreds a second)
/// then costs a line every <see cref="SummaryInterval"/>, not one a refusal. Past <see cref="MaxKinds"/> kinds on one
/// connection each refusal is logged as it comes, so a client naming new addresses cannot grow what is kept.
/// </summary>
internal sealed class LinkRefusals(string remote, TimeProvider time, ILogger logger)
{
    /// <summary>How often a kind's repeats are summarized while they go on.</summary>
    public static readonly TimeSpan SummaryInterval = TimeSpan.FromSeconds(10);

    public const int MaxKinds = 64;

    private readonly Lock _gate = new();
    private readonly Dictionary<(string? Address, string Reason), Repeats> _kinds = [];

    public void Refused(string name, string? address, string reason)
    {
        var now = time.GetUtcNow();
        (int Count, TimeSpan Over)? due = null;
        bool first;
        lock (_gate)
        {
            first = !_kinds.TryGetValue((address, reason), out var repeats);
            if (first && _kinds.Count < MaxKinds)
            {
                _kinds[(address, reason)] = new Repeats { Since = now };
            }
            else if (!first)
            {
                repeats!.Count++;
                if (now - repeats.Since >= SummaryInterval)
                {
                    due = repeats.Take(now);
                }
            }
        }

        if (first)
        {
            AmqpLog.LinkRefused(logger, name, address, reason);
        }
        else if (due is { } summary)
        {
            AmqpLog.LinkRefusalsRepeated(logger, address, summary.Count, remote, summary.Over.TotalSeconds, reason);
        }
    }

    /// <summary>The connection closed: the repeats not yet logged are.</summary>
    public void Closed()
    {
        var now = time.GetUtcNow();
        List<(string? Address, string Reason, int Count, TimeSpan Over)> due = [];
        lock (_gate)
        {
            foreach (var ((address, reason), repeats) in _kinds)
            {
                if (repeats.Count > 0)
                {
                    var (count, over) = repeats.Take(now);
                    due.Add((address, reason, count, over));
                }
            }
        }

        foreach (var (address, reason, count, over) in due)
        {
            AmqpLog.LinkRefusalsRepeated(logger, address, count, remote, over.TotalSeconds, reason);
        }
    }

    private sealed class Repeats
    {
        public DateTimeOffset Since { get; set; }

        public int Count { get; set; }

        /// <summary>The repeats counted since the last line, and starts counting anew.</summary>
        public (int Count, TimeSpan Over) Take(DateTimeOffset now)
        {
            var taken = (Count, now - Since);
            Count = 0;
            Since = now;
            return taken;
        }
    }
}
