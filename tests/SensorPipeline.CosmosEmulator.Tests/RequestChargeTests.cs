using System.Text.Json;
using SensorPipeline.CosmosEmulator.Charging;

namespace SensorPipeline.CosmosEmulator.Tests;

/// <summary>The cost model against the worked examples of "Understand request units consumption in Azure Cosmos DB"
/// (2026-04-21), and the rule for counting index terms.</summary>
[Trait("Category", "Fast")]
public class RequestChargeTests
{
    /// <summary>A 1-KB document (1,024 bytes, padded under an excluded path) with exactly 10 indexed terms: id, _ts and
    /// eight user values.</summary>
    private static readonly IndexingPolicy PaddedPolicy = Policy("""{"includedPaths":[{"path":"/*"}],"excludedPaths":[{"path":"/\"_etag\"/?"},{"path":"/padding/?"}]}""");

    [Fact]
    public void Create_OneKilobyteTenTerms_SevenRequestUnits()
    {
        var document = OneKilobyte(a: "x", b: 1);
        Assert.Equal(10, IndexTerms.Count(document, PaddedPolicy));
        Assert.Equal(7.0, RequestCharge.Create(document.Length, 10));
    }

    [Fact]
    public void Replace_OneKilobyteTwoModifiedTerms_TenPointEightRequestUnits()
    {
        var (before, after) = (OneKilobyte(a: "x", b: 1), OneKilobyte(a: "y", b: 2));
        var changes = IndexTerms.Compare(before, after, PaddedPolicy);
        Assert.Equal(new TermChanges(2, 2, 2), changes);
        Assert.Equal(10.8, RequestCharge.Replace(before.Length, after.Length, changes));
    }

    [Fact]
    public void Patch_OneKilobyteTwoModifiedTerms_ElevenPointSixRequestUnits()
    {
        var (before, after) = (OneKilobyte(a: "x", b: 1), OneKilobyte(a: "y", b: 2));
        Assert.Equal(11.6, RequestCharge.Patch(before.Length, after.Length, IndexTerms.Compare(before, after, PaddedPolicy)));
    }

    [Fact]
    public void Delete_OneKilobyteTenTerms_SevenRequestUnits()
    {
        var document = OneKilobyte(a: "x", b: 1);
        Assert.Equal(7.0, RequestCharge.Delete(document.Length, IndexTerms.Count(document, PaddedPolicy)));
    }

    [Fact]
    public void Query_ThousandOneKilobyteItems_ThousandRequestUnitsAboveTheBase()
    {
        // "Optimize request cost": a query returning 1000 1-KB items costs 1000 RU.
        Assert.Equal(1000 + RequestCharge.QueryBase, RequestCharge.Query(1000, 1000 * 1024));
    }

    [Fact]
    public void RequestCharge_DocumentAboveOneKilobyte_FollowsTheTable()
    {
        Assert.Equal(6.29, RequestCharge.Create(2 * 1024, 0));
        Assert.Equal(625.0, RequestCharge.Create(1024 * 1024, 0));
        Assert.Equal(1.0, RequestCharge.PointRead(300));
        Assert.Equal(9.95, RequestCharge.PointRead(128 * 1024));
    }

    [Fact]
    public void Count_NestedArraysAndSystemProperties_ByTheRule()
    {
        const string json = """
            {"id":"a","deviceId":"d","n":{"m":{"k":1}},"tags":["x","y",{"z":true}],"none":null,"empty":{},"list":[],
             "_rid":"r","_self":"s","_etag":"\"e\"","_attachments":"at","_ts":5}
            """;
        // id, deviceId, n/m/k, tags/0, tags/1, tags/2/z, none, empty, list, _ts = 10 (_rid, _self, _attachments, _etag: none)
        Assert.Equal(10, IndexTerms.Count(Encoding.UTF8.GetBytes(json), IndexingPolicy.Default));
    }

    [Fact]
    public void Count_ExcludedSubtreeWithAMorePreciseInclude_CountsOnlyTheIncludedLeaf()
    {
        var policy = Policy("""{"includedPaths":[{"path":"/*"},{"path":"/props/keep/?"}],"excludedPaths":[{"path":"/props/*"}]}""");
        const string json = """{"id":"a","props":{"keep":1,"drop":2,"deep":{"x":3}},"_ts":1}""";
        Assert.Equal(3, IndexTerms.Count(Encoding.UTF8.GetBytes(json), policy)); // id, _ts, props/keep
    }

    [Fact]
    public void Count_ExcludedRoot_IdTsAndExplicitPathsEvenWhenUndefined()
    {
        var policy = Policy("""{"includedPaths":[{"path":"/deviceId/?"},{"path":"/missing/?"}],"excludedPaths":[{"path":"/*"}]}""");
        const string json = """{"id":"a","deviceId":"d","other":1,"_ts":1}""";
        Assert.Equal(4, IndexTerms.Count(Encoding.UTF8.GetBytes(json), policy)); // id, _ts, deviceId, missing (undefined)
    }

    [Fact]
    public void Count_SpatialAndCompositeIndexes_OneTermEach()
    {
        var policy = Policy("""
            {"includedPaths":[{"path":"/*"}],"excludedPaths":[],
             "spatialIndexes":[{"path":"/geometry/*","types":["Point"]}],
             "compositeIndexes":[[{"path":"/a","order":"ascending"},{"path":"/b","order":"descending"}]]}
            """);
        const string json = """{"id":"a","geometry":{"type":"Point","coordinates":[10.5,50.1]},"a":1,"_ts":1}""";
        // id, _ts, a, geometry/type, geometry/coordinates/0, /1 = 6 range terms; + 1 spatial + 1 composite
        Assert.Equal(8, IndexTerms.Count(Encoding.UTF8.GetBytes(json), policy));
    }

    [Fact]
    public void Compare_APointMoved_ChangesItsCoordinatesAndItsSpatialTerm()
    {
        var policy = Policy(""" {"includedPaths":[{"path":"/*"}],"excludedPaths":[],"spatialIndexes":[{"path":"/geometry/*","types":["Point"]}]} """);
        var changes = IndexTerms.Compare(""" {"id":"a","geometry":{"type":"Point","coordinates":[10.5,50.1]},"_ts":1} """u8,
            """ {"id":"a","geometry":{"type":"Point","coordinates":[10.6,50.1]},"_ts":1} """u8, policy);
        Assert.Equal(new TermChanges(2, 2, 1), changes); // coordinates/0 and the spatial term; one property modified
    }

    [Fact]
    public void Count_IndexingModeNone_NoTerms()
    {
        var policy = Policy("""{"indexingMode":"none","automatic":false,"includedPaths":[],"excludedPaths":[]}""");
        Assert.Equal(0, IndexTerms.Count("""{"id":"a","b":1,"_ts":1}"""u8, policy));
    }

    [Fact]
    public void Compare_SameValuesWrittenDifferently_NoChange()
    {
        var changes = IndexTerms.Compare("""{"id":"a","s":"é","n":1.0,"_ts":1}"""u8, """{"_ts":1,"n":1,"s":"\u00e9","id":"a"}"""u8, IndexingPolicy.Default);
        Assert.Equal(new TermChanges(0, 0, 0), changes);
    }

    [Fact]
    public void Compare_UnindexedPropertyChanged_ModifiesAPropertyButNoTerm()
    {
        var policy = Policy("""{"includedPaths":[{"path":"/*"}],"excludedPaths":[{"path":"/blob/?"}]}""");
        var changes = IndexTerms.Compare("""{"id":"a","blob":"x","_ts":1}"""u8, """{"id":"a","blob":"y","_ts":1}"""u8, policy);
        Assert.Equal(new TermChanges(0, 0, 1), changes);
    }

    private static IndexingPolicy Policy(string policy)
    {
        using var container = JsonDocument.Parse($$"""{"id":"c","indexingPolicy":{{policy}}}""");
        return IndexingPolicy.From(container.RootElement);
    }

    private static byte[] OneKilobyte(string a, int b)
    {
        var body = $$"""{"id":"doc","deviceId":"d","a":"{{a}}","b":{{b}},"c":true,"d":null,"e":"e","f":[1,2],"_ts":1700000000,"padding":""}""";
        var padded = body.Replace("\"padding\":\"\"", $"\"padding\":\"{new string('p', 1024 - Encoding.UTF8.GetByteCount(body))}\"", StringComparison.Ordinal);
        var bytes = Encoding.UTF8.GetBytes(padded);
        Assert.Equal(1024, bytes.Length);
        return bytes;
    }
}
