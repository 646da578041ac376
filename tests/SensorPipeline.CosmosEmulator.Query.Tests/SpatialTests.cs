using System.Globalization;

namespace SensorPipeline.CosmosEmulator.Query.Tests;

public class SpatialTests
{
    private const string Reference = """{"type":"Point","coordinates":[-122.11758113953535,47.66901087006131]}""";

    private static double Distance(string a, string b) =>
        double.Parse(Assert.Single(Run.Query($"SELECT VALUE ST_DISTANCE({a}, {b})", [])), CultureInfo.InvariantCulture);

    /// <summary>The two distances in the service's own ST_DISTANCE reference example (Azure Cosmos DB for NoSQL query
    /// language, "ST_DISTANCE", learn.microsoft.com/azure/cosmos-db/query/st-distance): an office 3.3 km away and one
    /// about 1,900 km away. A sphere of radius 6,371,008.8 m is 5.5 km off on the second.</summary>
    [Theory]
    [InlineData(-122.12826822304672, 47.63980239335718, 3345.269817267368)]
    [InlineData(-96.84368664765994, 46.81297794314663, 1907438.421299902)]
    public void Distance_DocumentedPoints_MatchesTheServicesResults(double lon, double lat, double expectedMetres)
    {
        var point = string.Create(CultureInfo.InvariantCulture, $$"""{"type":"Point","coordinates":[{{lon}},{{lat}}]}""");
        var metres = Distance(Reference, point);
        Assert.InRange(metres, expectedMetres - 0.5, expectedMetres + 0.5);
    }

    [Fact]
    public void Distance_OverDocuments_FiltersByRadius()
    {
        string[] docs =
        [
            """{"id":"hq","location":{"type":"Point","coordinates":[-122.12826822304672,47.63980239335718]}}""",
            """{"id":"rd","location":{"type":"Point","coordinates":[-96.84368664765994,46.81297794314663]}}""",
            """{"id":"none"}""",
        ];
        var items = Run.Query("SELECT VALUE c.id FROM c WHERE ST_DISTANCE(c.location, @p) < 10000", docs, ("@p", Reference));
        Assert.Equal(["\"hq\""], items);
    }

    [Fact]
    public void Distance_IsZeroForTheSamePoint_SymmetricAndFiniteForAntipodes()
    {
        Assert.Equal(0, Distance(Reference, Reference));
        var oslo = """{"type":"Point","coordinates":[10.7522,59.9139]}""";
        Assert.Equal(Distance(Reference, oslo), Distance(oslo, Reference), 6);
        var antipodes = Distance("""{"type":"Point","coordinates":[0,0]}""", """{"type":"Point","coordinates":[180,0]}""");
        Assert.InRange(antipodes, 19_990_000, 20_020_000);
    }

    [Theory]
    [InlineData("""{"type":"Point","coordinates":[200,0]}""")]
    [InlineData("""{"type":"Point","coordinates":["a",0]}""")]
    [InlineData("""{"type":"LineString","coordinates":[[0,0],[1,1]]}""")]
    [InlineData("42")]
    public void Distance_OfAnythingButTwoValidPoints_IsUndefined(string other) =>
        Assert.Empty(Run.Query($"SELECT VALUE ST_DISTANCE({Reference}, {other})", []));

    private const string SquareWithHole =
        """{"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10],[0,10],[0,0]],[[4,4],[6,4],[6,6],[4,6],[4,4]]]}""";

    [Theory]
    [InlineData(1, 1, "true")]
    [InlineData(9.9, 5, "true")]
    [InlineData(5, 5, "false")] // in the hole
    [InlineData(11, 5, "false")]
    [InlineData(-0.1, 5, "false")]
    public void Within_PolygonWithHole_HoleIsOutside(double lon, double lat, string expected)
    {
        var point = string.Create(CultureInfo.InvariantCulture, $$"""{"type":"Point","coordinates":[{{lon}},{{lat}}]}""");
        Assert.Equal([expected], Run.Query($"SELECT VALUE ST_WITHIN({point}, {SquareWithHole})", []));
    }

    [Fact]
    public void Within_MultiPolygon_AndInvalidArea()
    {
        const string multi = """{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,1],[0,0]]],[[[5,5],[6,5],[6,6],[5,6],[5,5]]]]}""";
        Assert.Equal(["true"], Run.Query($$"""SELECT VALUE ST_WITHIN({"type":"Point","coordinates":[5.5,5.5]}, {{multi}})""", []));
        Assert.Equal(["false"], Run.Query($$"""SELECT VALUE ST_WITHIN({"type":"Point","coordinates":[3,3]}, {{multi}})""", []));
        const string open = """{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1]]]}""";
        Assert.Empty(Run.Query($$"""SELECT VALUE ST_WITHIN({"type":"Point","coordinates":[0.5,0.5]}, {{open}})""", []));
    }

    [Theory]
    [InlineData("""{"type":"Point","coordinates":[10.75,59.91]}""", "true")]
    [InlineData("""{"type":"Point","coordinates":[10.75,91]}""", "false")]
    [InlineData("""{"type":"Point","coordinates":[10.75]}""", "false")]
    [InlineData("""{"type":"Point"}""", "false")]
    [InlineData("""{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}""", "true")]
    [InlineData("""{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1]]]}""", "false")]
    [InlineData("""{"type":"LineString","coordinates":[[0,0],[1,1]]}""", "true")]
    [InlineData("""{"type":"Circle","coordinates":[0,0]}""", "false")]
    [InlineData("'Point'", "false")]
    public void IsValid_Geometry_AsTheServiceJudges(string geometry, string expected) =>
        Assert.Equal([expected], Run.Query($"SELECT VALUE ST_ISVALID({geometry})", []));
}
