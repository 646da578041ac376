using System.Buffers;

namespace SensorPipeline.CosmosEmulator.Http;

/// <summary>The account (<c>GET /</c>) and its offers: answers that depend on no stored resource.</summary>
internal static class AccountEndpoint
{
    /// <summary>The account: its one region is this endpoint (for reads and writes), session consistency, and the
    /// query engine limits the SDKs read before planning queries.</summary>
    public static Task AccountAsync(HttpContext context)
    {
        var endpoint = $"https://{context.Request.Host}/";
        var buffer = new ArrayBufferWriter<byte>(2048);
        using (var writer = new Utf8JsonWriter(buffer))
        {
            writer.WriteStartObject();
            writer.WriteString("_self", "");
            writer.WriteString("id", "localhost");
            writer.WriteString("_rid", "localhost");
            writer.WriteString("media", "//media/");
            writer.WriteString("addresses", "//addresses/");
            writer.WriteString("_dbs", "//dbs/");
            foreach (var name in (ReadOnlySpan<string>)["writableLocations", "readableLocations"])
            {
                writer.WriteStartArray(name);
                writer.WriteStartObject();
                writer.WriteString("name", "South Central US");
                writer.WriteString("databaseAccountEndpoint", endpoint);
                writer.WriteEndObject();
                writer.WriteEndArray();
            }

            writer.WriteBoolean("enableMultipleWriteLocations", false);
            writer.WriteStartObject("userReplicationPolicy");
            writer.WriteBoolean("asyncReplication", false);
            writer.WriteNumber("minReplicaSetSize", 1);
            writer.WriteNumber("maxReplicasetSize", 4);
            writer.WriteEndObject();
            writer.WriteStartObject("userConsistencyPolicy");
            writer.WriteString("defaultConsistencyLevel", "Session");
            writer.WriteEndObject();
            writer.WriteStartObject("systemReplicationPolicy");
            writer.WriteNumber("minReplicaSetSize", 1);
            writer.WriteNumber("maxReplicasetSize", 4);
            writer.WriteEndObject();
            writer.WriteStartObject("readPolicy");
            writer.WriteNumber("primaryReadCoefficient", 1);
            writer.WriteNumber("secondaryReadCoefficient", 1);
            writer.WriteEndObject();
            writer.WriteString("queryEngineConfiguration",
                """{"maxSqlQueryInputLength":262144,"maxJoinsPerSqlQuery":5,"maxLogicalAndPerSqlQuery":500,"maxLogicalOrPerSqlQuery":500,"maxUdfRefPerSqlQuery":10,"maxInExpressionItemsCount":16000,"queryMaxInMemorySortDocumentCount":500,"maxQueryRequestTimeoutFraction":0.9,"sqlAllowNonFiniteNumbers":false,"sqlAllowAggregateFunctions":true,"sqlAllowSubQuery":true,"sqlAllowScalarSubQuery":true,"allowNewKeywords":true,"sqlAllowLike":true,"sqlAllowGroupByClause":false,"maxSpatialQueryCells":12,"spatialMaxGeometryPointCount":256,"sqlDisableOptimizationFlags":0,"sqlAllowTop":true,"enableSpatialIndexing":true}""");
            writer.WriteEndObject();
        }

        return GatewayResponse.JsonAsync(context, 200, buffer.WrittenMemory, 0);
    }

    /// <summary>Offers: none (throughput is the emulator's configured budget, not a resource); an empty feed lets a
    /// client that reads them see "no offer" rather than an error.</summary>
    public static Task OffersAsync(HttpContext context) =>
        HttpMethods.IsGet(context.Request.Method) || GatewayRequest.IsQuery(context.Request)
            ? GatewayResponse.FeedAsync(context, "", "Offers", [], 1, null)
            : GatewayRequest.NotSupported(context);
}
