using Microsoft.ApplicationInsights.Channel;
using Microsoft.ApplicationInsights.Extensibility;

namespace SensorPipeline.Functions.Telemetry;

/// <summary>
/// Stamps cloud_RoleName (the Function App's name in Azure) and cloud_RoleInstance (host and process) on every item.
/// The metric aggregates are sent through the configuration's own client, so the context must come from an initializer.
/// </summary>
internal sealed class RoleInitializer : ITelemetryInitializer
{
    private static readonly string RoleName = Environment.GetEnvironmentVariable("WEBSITE_SITE_NAME") is { Length: > 0 } site ? site : "SensorPipeline.Functions";
    private static readonly string RoleInstance = $"{Environment.MachineName}:{Environment.ProcessId}";

    public void Initialize(ITelemetry telemetry)
    {
        ArgumentNullException.ThrowIfNull(telemetry);
        telemetry.Context.Cloud.RoleName ??= RoleName;
        telemetry.Context.Cloud.RoleInstance ??= RoleInstance;
    }
}
