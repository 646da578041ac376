using System.Text.Json;

namespace SensorPipeline.Core.DeviceStates;

/// <summary>
/// One processor instance's durable promise about the device states it holds in memory, kept in <c>devices</c> under
/// the partition key <see cref="PartitionKey"/>: "every reading I stored before <see cref="StoredBeforeUnixMs"/> has its
/// device state durable". The instance rewrites it after every flush, which is also its heartbeat; once
/// <see cref="ExpiresAtUnixMs"/> passes unrenewed, any instance may claim it and rebuild the states of the readings
/// stored since then from <c>readings</c>. A mark being recovered carries its claimant and the claim's own expiry, so a
/// claimant that dies is replaced in turn.
/// </summary>
/// <param name="Id">Unique per process run: a restarted process never overwrites its predecessor's mark.</param>
/// <param name="StoredBeforeUnixMs">Readings stored before this instant (the writer's clock) have their states durable.</param>
/// <param name="HeartbeatUnixMs">When the writer last renewed it.</param>
/// <param name="ExpiresAtUnixMs">After this, unrenewed, the writer is taken for dead.</param>
/// <param name="Pending">Device states the writer held unwritten when it renewed the mark.</param>
/// <param name="ClaimedBy">The instance recovering it, or null while its writer renews it.</param>
/// <param name="ClaimExpiresAtUnixMs">When a claim not finished by then may be taken over.</param>
public sealed record PendingStatesMark(
    string Id,
    long StoredBeforeUnixMs,
    long HeartbeatUnixMs,
    long ExpiresAtUnixMs,
    int Pending,
    string? ClaimedBy = null,
    long ClaimExpiresAtUnixMs = 0)
{
    /// <summary>The one logical partition of <c>devices</c> every mark lives in: listing them is a single-partition query
    /// that reads the marks only, whatever the container's indexing policy.</summary>
    public const string PartitionKey = "~pending-device-states";

    /// <summary>True when nobody renews it any longer: its writer (or its claimant) is taken for dead.</summary>
    public bool IsExpired(long nowUnixMs) => (ClaimedBy is null ? ExpiresAtUnixMs : ClaimExpiresAtUnixMs) < nowUnixMs;

    /// <summary>The mark as the document stored in <c>devices</c>.</summary>
    public byte[] ToJson()
    {
        using var buffer = new MemoryStream();
        using (var writer = new Utf8JsonWriter(buffer))
        {
            writer.WriteStartObject();
            writer.WriteString("id", Id);
            writer.WriteString("deviceId", PartitionKey);
            writer.WriteNumber("storedBefore", StoredBeforeUnixMs);
            writer.WriteNumber("heartbeat", HeartbeatUnixMs);
            writer.WriteNumber("expiresAt", ExpiresAtUnixMs);
            writer.WriteNumber("pending", Pending);
            if (ClaimedBy is not null)
            {
                writer.WriteString("claimedBy", ClaimedBy);
                writer.WriteNumber("claimExpiresAt", ClaimExpiresAtUnixMs);
            }

            writer.WriteEndObject();
        }

        return buffer.ToArray();
    }

    /// <summary>A stored mark, or null when <paramref name="document"/> is not one.</summary>
    public static PendingStatesMark? Parse(JsonElement document)
    {
        if (document.ValueKind != JsonValueKind.Object
            || !document.TryGetProperty("id", out var id) || id.ValueKind != JsonValueKind.String
            || !TryGetLong(document, "storedBefore", out var storedBefore)
            || !TryGetLong(document, "heartbeat", out var heartbeat)
            || !TryGetLong(document, "expiresAt", out var expiresAt)
            || !TryGetLong(document, "pending", out var pending))
        {
            return null;
        }

        var claimedBy = document.TryGetProperty("claimedBy", out var claimant) && claimant.ValueKind == JsonValueKind.String ? claimant.GetString() : null;
        TryGetLong(document, "claimExpiresAt", out var claimExpiresAt);
        return new PendingStatesMark(id.GetString()!, storedBefore, heartbeat, expiresAt, (int)pending, claimedBy, claimExpiresAt);
    }

    private static bool TryGetLong(JsonElement document, string name, out long value)
    {
        value = 0;
        return document.TryGetProperty(name, out var element) && element.ValueKind == JsonValueKind.Number && element.TryGetInt64(out value);
    }
}
