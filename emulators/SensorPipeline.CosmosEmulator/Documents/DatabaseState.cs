namespace SensorPipeline.CosmosEmulator.Documents;

/// <summary>One database: its resource JSON and its containers by id (the SDKs address them by name, and the
/// partition key range cache by <c>_rid</c>). Guarded by the store's metadata lock.</summary>
internal sealed class DatabaseState
{
    /// <summary>Reads the resource's system properties at once, so a resource without them is refused where it is
    /// loaded (a request, or the log's replay), never on some later read.</summary>
    public DatabaseState(byte[] resource)
    {
        using var parsed = JsonDocument.Parse(resource);
        var root = parsed.RootElement;
        Resource = resource;
        Id = root.GetProperty("id").GetString()!;
        Rid = root.GetProperty("_rid").GetString()!;
        SelfLink = root.GetProperty("_self").GetString()!;
        ETag = root.GetProperty("_etag").GetString()!;
    }

    public byte[] Resource { get; }

    public string Id { get; }

    public string Rid { get; }

    public string SelfLink { get; }

    public string ETag { get; }

    public Dictionary<string, ContainerState> Containers { get; } = new(StringComparer.Ordinal);
}
