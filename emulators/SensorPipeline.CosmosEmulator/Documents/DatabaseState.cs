using System.Text.Json;

namespace SensorPipeline.CosmosEmulator.Documents;

/// <summary>One database: its resource JSON and its containers by id (the SDKs address them by name, and the
/// partition key range cache by <c>_rid</c>). Guarded by the store's metadata lock.</summary>
internal sealed class DatabaseState(byte[] resource)
{
    private readonly JsonDocument _parsed = JsonDocument.Parse(resource);

    public byte[] Resource { get; } = resource;

    public string Id => _parsed.RootElement.GetProperty("id").GetString()!;

    public string Rid => _parsed.RootElement.GetProperty("_rid").GetString()!;

    public string SelfLink => _parsed.RootElement.GetProperty("_self").GetString()!;

    public string ETag => _parsed.RootElement.GetProperty("_etag").GetString()!;

    public Dictionary<string, ContainerState> Containers { get; } = new(StringComparer.Ordinal);
}
