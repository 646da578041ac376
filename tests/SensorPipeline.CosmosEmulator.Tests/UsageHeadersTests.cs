using System.Globalization;
using System.Text.Json;
using Microsoft.Azure.Cosmos;

namespace SensorPipeline.CosmosEmulator.Tests;

/// <summary>The usage and query-metrics headers the service answers when asked, read through the official SDK: a
/// container read with <c>PopulateQuotaInfo</c> carries <c>x-ms-resource-usage</c>, and a query's diagnostics carry
/// the metrics the SDK parsed from <c>x-ms-documentdb-query-metrics</c>, both matching the stored documents.</summary>
public sealed class UsageHeadersTests(EmulatorFixture fixture) : IClassFixture<EmulatorFixture>
{
    [Fact]
    public async Task ReadContainer_PopulateQuotaInfo_UsageCountsAndSizesTheStoredDocuments()
    {
        var container = await fixture.NewContainerAsync();
        for (var i = 0; i < 25; i++)
        {
            await container.CreateItemAsync(new { id = $"r{i}", deviceId = $"dev-{i % 5}", value = i, padding = new string('x', 200) }, new PartitionKey($"dev-{i % 5}"));
        }

        var stored = await StoredBytesAsync(container);
        var asked = await container.ReadContainerAsync(new ContainerRequestOptions { PopulateQuotaInfo = true });
        var plain = await container.ReadContainerAsync();

        var usage = Parse(asked.Headers["x-ms-resource-usage"]);
        Assert.Equal(25, usage["documentsCount"]);
        Assert.Equal(Math.Ceiling(stored / 1024.0), usage["documentsSize"]);
        Assert.True(stored > 25 * 200, $"stored {stored} bytes");
        Assert.Null(plain.Headers["x-ms-resource-usage"]);
    }

    [Fact]
    public async Task Query_Metrics_TheSdkParsesRetrievedAndOutputCounts()
    {
        var container = await fixture.NewContainerAsync();
        for (var i = 0; i < 12; i++)
        {
            await container.CreateItemAsync(new { id = $"q{i}", deviceId = "dev-a", value = i }, new PartitionKey("dev-a"));
        }

        using var query = container.GetItemQueryIterator<JsonElement>("SELECT * FROM c WHERE c.value >= 8", requestOptions: new QueryRequestOptions { PartitionKey = new PartitionKey("dev-a") });
        var page = await query.ReadNextAsync();

        var metrics = page.Diagnostics.GetQueryMetrics()?.CumulativeMetrics;
        Assert.NotNull(metrics);
        Assert.Equal(4, page.Count);
        Assert.Equal(4, metrics.OutputDocumentCount);
        Assert.True(metrics.RetrievedDocumentCount is 4 or 12, $"retrieved {metrics.RetrievedDocumentCount}: the filter's matches when indexed, else every document");
        Assert.True(metrics.RetrievedDocumentSize > 0);
        Assert.True(metrics.OutputDocumentSize > 0);
    }

    /// <summary>The bytes of every stored document as the emulator returns it (its stored JSON).</summary>
    private static async Task<long> StoredBytesAsync(Container container)
    {
        long bytes = 0;
        using var feed = container.GetItemQueryStreamIterator("SELECT * FROM c");
        while (feed.HasMoreResults)
        {
            using var response = await feed.ReadNextAsync();
            using var page = await JsonDocument.ParseAsync(response.Content);
            foreach (var document in page.RootElement.GetProperty("Documents").EnumerateArray())
            {
                bytes += System.Text.Encoding.UTF8.GetByteCount(document.GetRawText());
            }
        }

        return bytes;
    }

    private static Dictionary<string, double> Parse(string header) =>
        header.Split(';', StringSplitOptions.RemoveEmptyEntries)
            .Select(pair => pair.Split('='))
            .ToDictionary(pair => pair[0], pair => double.Parse(pair[1], CultureInfo.InvariantCulture));
}
