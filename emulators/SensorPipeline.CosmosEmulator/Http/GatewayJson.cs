using System.Text.Json.Serialization;
using SensorPipeline.CosmosEmulator.Throttling;

namespace SensorPipeline.CosmosEmulator.Http;

/// <summary>Source-generated JSON for the few typed bodies the emulator writes or reads.</summary>
[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase, DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull)]
[JsonSerializable(typeof(ErrorBody))]
[JsonSerializable(typeof(FaultRequest))]
[JsonSerializable(typeof(ThroughputRequest))]
internal sealed partial class GatewayJson : JsonSerializerContext;
