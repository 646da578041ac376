using SensorPipeline.Core.Readings;

namespace SensorPipeline.Plan.Model;

/// <summary>
/// The diagnostic logs the template sends to Log Analytics, each priced from the rows it produces at the planned rate
/// (billed bytes per row x the ingestion price). The audit categories record what people and deployments do, so no
/// row scales with readings; the per-request ones (Cosmos DB requests, partition keys, Storage reads and writes) are a
/// row per request, which is why the plan's profiles keep them off.
/// </summary>
internal static class DiagnosticsPlanner
{
    /// <summary>Runtime audit rows are aggregated per minute, per client and operation (AZMSRunTimeAuditLogs.Count).</summary>
    private const double AggregationsPerHour = 60;

    /// <summary>
    /// Operations a function instance holds on Event Hubs: the splitter receives one hub and sends to every kind's hub;
    /// a processor receives its own.
    /// </summary>
    private static int HubOperations(string function) => function == "Splitter" ? 1 + SensorKindCatalog.Default.All.Count : 1;

    public static DiagnosticsPlan Plan(ReadingCosts costs, PriceBook book, string eventHubsTier,
        FunctionsPlan functions, CosmosRequests cosmos, StorageRequests storage)
    {
        var pricePerRow = costs.RequestLogRowBytes / 1e9 * book.Price("logAnalytics.analyticsGb");
        LogCategoryPlan Category(string resource, string category, bool on, double rowsPerHour, string rows) =>
            new(resource, category, on, rowsPerHour, rowsPerHour * pricePerRow, rows);

        var categories = new List<LogCategoryPlan>
        {
            Category("Event Hubs namespace", "OperationalLogs", true, 0, "a row per management operation (azd provision)"),
            Category("Storage (blob, queue, table)", "StorageDelete", true, 0, "a row per delete (a deployment's package)"),
            Category("Storage (blob, queue, table)", "StorageRead", false, storage.ReadsPerHour, "a row per read: every ownership listing"),
            Category("Storage (blob, queue, table)", "StorageWrite", false, storage.WritesPerHour, "a row per write: every checkpoint and ownership claim"),
            Category("Function App", "audit", true, 0, "a row per SCM/Kudu or FTP access (a deployment)"),
            Category("Cosmos DB account", "ControlPlaneRequests", true, 0, "a row per control-plane change (azd provision)"),
            Category("Cosmos DB account", "DataPlaneRequests", false, cosmos.RequestsPerSecond * 3600, "a row per request"),
            Category("Cosmos DB account", "PartitionKeyRUConsumption", false, cosmos.KeysPerSecond * 3600, "a row per partition key and operation per second"),
        };
        if (eventHubsTier != "Standard")
        {
            var clientOperations = functions.Functions.Sum(f => f.Instances * HubOperations(f.Name));
            categories.Insert(1, Category("Event Hubs namespace", "RuntimeAuditLogs", true, AggregationsPerHour * clientOperations,
                "a row per client and operation per minute"));
        }

        return new DiagnosticsPlan(categories);
    }
}

/// <summary>What Cosmos DB sees per second: requests, and distinct (partition key, operation) pairs.</summary>
internal sealed record CosmosRequests(double RequestsPerSecond, double KeysPerSecond);

/// <summary>What the host's Event Hubs checkpoint store asks of Storage per hour.</summary>
internal sealed record StorageRequests(double ReadsPerHour, double WritesPerHour);
