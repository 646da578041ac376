namespace SensorPipeline.EventHubs.Amqp;

/// <summary>A link address: <c>hub</c>, <c>hub/Partitions/{id}</c> (senders) or
/// <c>hub/ConsumerGroups/{group}/Partitions/{id}</c> (receivers). The .NET client sends it with a leading slash
/// (<c>Uri.AbsolutePath</c>), the Node client without; a full <c>amqp(s)://host/…</c> address is taken by its path.
/// Keywords are case-insensitive, as Event Hubs treats them.</summary>
internal sealed record EntityAddress(string Hub, string? ConsumerGroup, string? PartitionId)
{
    /// <summary>The path a SAS token must cover, e.g. <c>hub/Partitions/0</c>.</summary>
    public string Path => ConsumerGroup is not null
        ? $"{Hub}/ConsumerGroups/{ConsumerGroup}/Partitions/{PartitionId}"
        : PartitionId is not null ? $"{Hub}/Partitions/{PartitionId}" : Hub;

    public static string PathOf(string address)
    {
        var text = address.Trim();
        var scheme = text.IndexOf("://", StringComparison.Ordinal);
        if (scheme >= 0)
        {
            var slash = text.IndexOf('/', scheme + 3);
            text = slash < 0 ? string.Empty : text[slash..];
        }

        return Uri.UnescapeDataString(text.Trim('/'));
    }

    /// <summary>Null when the address has none of the three shapes.</summary>
    public static EntityAddress? Parse(string? address)
    {
        if (address is null)
        {
            return null;
        }

        var parts = PathOf(address).Split('/');
        return parts switch
        {
            [var hub] when hub.Length > 0 => new EntityAddress(hub, null, null),
            [var hub, var p, var id] when Is(p, "Partitions") => new EntityAddress(hub, null, id),
            [var hub, var c, var group, var p, var id] when Is(c, "ConsumerGroups") && Is(p, "Partitions") => new EntityAddress(hub, group, id),
            _ => null,
        };
    }

    private static bool Is(string part, string keyword) => string.Equals(part, keyword, StringComparison.OrdinalIgnoreCase);
}
