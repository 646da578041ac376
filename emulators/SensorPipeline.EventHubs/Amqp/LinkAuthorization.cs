using SensorPipeline.EventHubs.Http;

namespace SensorPipeline.EventHubs.Amqp;

/// <summary>Whether a link may still send or receive: authorized at attach until the latest expiry of its connection's
/// tokens for its path, and looked up again only once that passes (a refreshed put-token extends it), so the per-message
/// check is a comparison.</summary>
internal sealed class LinkAuthorization(ConnectionState state, string path, SasRights needed, TimeProvider time)
{
    /// <summary>UTC ticks; read and written from the link's delivery threads.</summary>
    private long _until = (state.AuthorizedUntil(path, needed, time.GetUtcNow()) ?? DateTimeOffset.MinValue).UtcTicks;

    public bool IsValid()
    {
        var now = time.GetUtcNow();
        if (now.UtcTicks < Volatile.Read(ref _until))
        {
            return true;
        }

        var until = state.AuthorizedUntil(path, needed, now);
        if (until is null)
        {
            return false;
        }

        Volatile.Write(ref _until, until.Value.UtcTicks);
        return true;
    }
}
