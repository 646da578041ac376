using System.Text;
using SensorPipeline.Functions.Storage;

namespace SensorPipeline.Functions.Tests;

/// <summary>The ids a ReadMany answer holds: only each document's own top-level id counts.</summary>
[Trait("Category", "Fast")]
public sealed class StoredIdsTests
{
    [Fact]
    public void Collect_TakesEachDocumentsTopLevelId_NotNestedOnesOrOtherProperties()
    {
        var answer = """
            {"_rid":"x","id":"not-a-document","Documents":[
              {"id":"dev-1:1:5","properties":{"id":"nested"},"geometry":{"type":"Point","coordinates":[1,2]}},
              {"geometry":{"id":"nested-too"},"id":"dev-2:7:9"},
              {"noId":true}
            ],"_count":3}
            """;
        var ids = new HashSet<string>(StringComparer.Ordinal);

        StoredIds.Collect(Encoding.UTF8.GetBytes(answer), ids);

        Assert.Equal(["dev-1:1:5", "dev-2:7:9"], ids.Order(StringComparer.Ordinal).ToArray());
    }

    [Fact]
    public async Task CollectAsync_NoContentOrEmptyFeed_FindsNothing()
    {
        var ids = new HashSet<string>(StringComparer.Ordinal);
        await StoredIds.CollectAsync(null, ids, CancellationToken.None);
        using var empty = new MemoryStream(Encoding.UTF8.GetBytes("""{"_rid":"x","Documents":[],"_count":0}"""));
        await StoredIds.CollectAsync(empty, ids, CancellationToken.None);
        Assert.Empty(ids);
    }
}
