using System.Text.Json;

namespace SensorPipeline.EventHubs.Http;

/// <summary>An extra top-level member of <c>GET /status</c>, contributed by whatever the devhost program composes beside
/// the emulator (the local Functions host adds its checkpoints, lag and invocation counters). Registered in DI as
/// <c>IStatusSection</c>; the emulator writes each one after its own hubs, so it never needs to know what they are.</summary>
public interface IStatusSection
{
    /// <summary>The JSON property name of the section in <c>/status</c> (camelCase, unique).</summary>
    string Name { get; }

    /// <summary>Writes the section's value (one JSON value: usually an object) at the writer's current position.</summary>
    void WriteValue(Utf8JsonWriter writer);
}
