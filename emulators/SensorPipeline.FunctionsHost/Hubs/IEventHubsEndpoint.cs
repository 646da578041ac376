namespace SensorPipeline.FunctionsHost.Hubs;

/// <summary>Where the Event Hubs endpoint the processors connect to listens, when the host serves it itself (devhost)
/// or knows it from its command line (an instance process): it replaces the host and port of the trigger's connection
/// setting.</summary>
public interface IEventHubsEndpoint
{
    /// <summary>The endpoint, once it listens.</summary>
    Task<Uri> GetAsync(CancellationToken cancellationToken);
}
