namespace SensorPipeline.EventHubs;

/// <summary>The namespace as read from an emulator config file (<see cref="NamespaceConfigLoader"/>).</summary>
/// <param name="Name">The namespace name (<c>UserConfig.NamespaceConfig[].Name</c>).</param>
/// <param name="Hubs">The event hubs (<c>Entities</c>), in file order.</param>
public sealed record NamespaceConfig(string Name, IReadOnlyList<EventHubDescription> Hubs);
