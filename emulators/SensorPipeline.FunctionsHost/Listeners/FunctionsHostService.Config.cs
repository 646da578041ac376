using SensorPipeline.FunctionsHost.Config;

namespace SensorPipeline.FunctionsHost.Listeners;

internal sealed partial class FunctionsHostService
{
    /// <summary>The functions named in <see cref="FunctionsHostOptions.Functions"/> (all when empty); an unknown name
    /// stops start-up.</summary>
    private static FunctionApp Select(FunctionApp app, FunctionsHostOptions settings)
    {
        var names = settings.FunctionNames;
        if (names.Count == 0)
        {
            return app;
        }

        var unknown = names.Where(n => !app.Functions.Any(f => string.Equals(f.Name, n, StringComparison.OrdinalIgnoreCase))).ToList();
        if (unknown.Count > 0)
        {
            throw new InvalidOperationException(
                $"{FunctionsHostOptions.SectionName}:Functions names {string.Join(", ", unknown)}, which {Path.Combine(app.AppRoot, "host.json")}'s app does not have (it has {string.Join(", ", app.Functions.Select(f => f.Name))})");
        }

        return app with { Functions = app.Functions.Where(f => names.Contains(f.Name, StringComparer.OrdinalIgnoreCase)).ToList() };
    }

    /// <summary>host.json's ownership intervals with the devhost overrides applied (tests and demos shorten them).</summary>
    private static FunctionApp WithOverrides(FunctionApp app, FunctionsHostOptions settings)
    {
        var eventHubs = app.Host.EventHubs with
        {
            LoadBalancingUpdateInterval = settings.LoadBalancingUpdateInterval ?? app.Host.EventHubs.LoadBalancingUpdateInterval,
            PartitionOwnershipExpirationInterval = settings.PartitionOwnershipExpirationInterval ?? app.Host.EventHubs.PartitionOwnershipExpirationInterval,
        };
        if (eventHubs.PartitionOwnershipExpirationInterval <= eventHubs.LoadBalancingUpdateInterval)
        {
            throw new InvalidOperationException(
                $"{FunctionsHostOptions.SectionName}:PartitionOwnershipExpirationInterval ({eventHubs.PartitionOwnershipExpirationInterval}) must be more than the load-balancing update interval ({eventHubs.LoadBalancingUpdateInterval})");
        }

        return app with { Host = app.Host with { EventHubs = eventHubs } };
    }
}
