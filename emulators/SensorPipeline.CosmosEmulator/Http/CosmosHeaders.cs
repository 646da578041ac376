namespace SensorPipeline.CosmosEmulator.Http;

/// <summary>The gateway protocol's header names the emulator reads or writes.</summary>
internal static class CosmosHeaders
{
    public const string ActivityId = "x-ms-activity-id";
    public const string RequestCharge = "x-ms-request-charge";
    public const string SessionToken = "x-ms-session-token";
    public const string Continuation = "x-ms-continuation";
    public const string MaxItemCount = "x-ms-max-item-count";
    public const string ItemCount = "x-ms-item-count";
    public const string PartitionKey = "x-ms-documentdb-partitionkey";
    public const string PartitionKeyRangeId = "x-ms-documentdb-partitionkeyrangeid";
    public const string IsQuery = "x-ms-documentdb-isquery";
    public const string IsQueryPlanRequest = "x-ms-cosmos-is-query-plan-request";
    public const string IsUpsert = "x-ms-documentdb-is-upsert";
    public const string IsBatchRequest = "x-ms-cosmos-is-batch-request";
    public const string BatchAtomic = "x-ms-cosmos-batch-atomic";
    public const string BatchContinueOnError = "x-ms-cosmos-batch-continue-on-error";
    public const string RetryAfterMs = "x-ms-retry-after-ms";
    public const string SubStatus = "x-ms-substatus";
    public const string XDate = "x-ms-date";
    public const string AImHeader = "A-IM";
    public const string ContentPath = "x-ms-content-path";
    public const string AltContentPath = "x-ms-alt-content-path";
    public const string PopulateQuotaInfo = "x-ms-documentdb-populatequotainfo";
    public const string ResourceUsage = "x-ms-resource-usage";
    public const string PopulateQueryMetrics = "x-ms-documentdb-populatequerymetrics";
    public const string QueryMetrics = "x-ms-documentdb-query-metrics";
    public const string QueryContentType = "application/query+json";

    /// <summary>The header the fault endpoint requires, so a browser cannot send it a simple cross-site request.</summary>
    public const string AdminHeader = SensorPipeline.Clients.CosmosEmulatorAccount.AdminHeader;
}
