using System.Text.Json;
using Microsoft.Extensions.Options;
using SensorPipeline.EventHubs.Http;
using SensorPipeline.FunctionsHost.Status;
using HttpJsonOptions = Microsoft.AspNetCore.Http.Json.JsonOptions;

namespace SensorPipeline.DevHost;

/// <summary>The <c>functionsHost</c> member of the emulator's <c>GET /status</c>: the same document as
/// <c>GET /status/functions</c> (handler pid/port/starts; per function its invocations and, per partition of its consumer
/// group, checkpoint and lag), so one request shows the whole devhost.</summary>
internal sealed class FunctionsHostStatusSection(FunctionsHostState state, IOptions<HttpJsonOptions> json) : IStatusSection
{
    /// <summary>The property name in <c>/status</c>; <c>devhost status</c> looks for it.</summary>
    public const string SectionName = "functionsHost";

    public string Name => SectionName;

    // The minimal-API serializer options, so the shape is exactly what /status/functions returns (camelCase records).
    public void WriteValue(Utf8JsonWriter writer) => JsonSerializer.Serialize(writer, state.Snapshot(), json.Value.SerializerOptions);
}
