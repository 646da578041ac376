namespace SensorPipeline.CosmosEmulator.Documents;

/// <summary>One document as stored: its JSON as UTF-8 bytes with the system properties already in it (never a DOM, so
/// half a million documents cost little more than their bytes), and the fields the store itself needs.</summary>
/// <param name="Json">The document as the service returns it (<c>id</c>, user properties, <c>_rid</c>, <c>_self</c>,
/// <c>_etag</c>, <c>_attachments</c>, <c>_ts</c>).</param>
/// <param name="ETag">The quoted ETag, as in <c>_etag</c>.</param>
/// <param name="Timestamp">Seconds since the Unix epoch of the last write (<c>_ts</c>).</param>
/// <param name="TimeToLive">The item's own <c>ttl</c> in seconds, if it has one.</param>
internal sealed record StoredDocument(byte[] Json, string ETag, long Timestamp, int? TimeToLive)
{
    /// <summary>Whether the document has expired at <paramref name="now"/> (Unix seconds) under the container's
    /// <paramref name="defaultTtl"/>: none (TTL off, items never expire), -1 (on, items expire only with their own
    /// <c>ttl</c>), or seconds; an item's <c>ttl</c> of -1 never expires, and counts only while the container has TTL on.</summary>
    public bool IsExpired(int? defaultTtl, long now)
    {
        if (defaultTtl is null)
        {
            return false;
        }

        var effective = TimeToLive ?? defaultTtl.Value;
        return effective > 0 && Timestamp + effective <= now;
    }
}
