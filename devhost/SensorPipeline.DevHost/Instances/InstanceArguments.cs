namespace SensorPipeline.DevHost.Instances;

/// <summary>What one Functions-host instance in its own process runs with (<c>devhost instance</c>; see
/// <see cref="DevHostCommandLine"/>). The instance serves its own <c>/status/functions</c> on its port.</summary>
/// <param name="DevHost">The devhost serving the hubs (its port answers AMQP as well as HTTP).</param>
/// <param name="Host">The host part: app root (its local.settings.json names the shared AzureWebJobsStorage), data
/// directory, port and settings.</param>
/// <param name="InstanceId">The owner id in the ownership blobs.</param>
/// <param name="Functions">The functions it runs (comma-separated; empty: all).</param>
public sealed record InstanceArguments(Uri DevHost, DevHostArguments Host, string InstanceId, string Functions);
