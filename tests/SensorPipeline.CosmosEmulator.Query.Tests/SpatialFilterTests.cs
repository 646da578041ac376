namespace SensorPipeline.CosmosEmulator.Query.Tests;

/// <summary>Which WHERE terms a spatial index can serve, and the boxes they give.</summary>
public class SpatialFilterTests
{
    private const string Berlin = """{"type":"Point","coordinates":[13.4,52.5]}""";

    private static SpatialFilter? Filter(string sql, params (string Name, string Json)[] parameters) =>
        SqlQuery.Parse(sql).FindSpatialFilter(Run.Parameters(parameters));

    [Theory]
    [InlineData("SELECT * FROM c WHERE ST_DISTANCE(c.location, @p) < 10000")]
    [InlineData("SELECT * FROM c WHERE ST_DISTANCE(@p, c.location) <= 10000")]
    [InlineData("SELECT * FROM c WHERE 10000 > ST_DISTANCE(c.location, @p)")]
    [InlineData("SELECT * FROM c WHERE c.kind = 'weather' AND ST_DISTANCE(c.location, @p) < 10000")]
    public void Filter_CircleOnADocumentPath_BoxAroundIt(string sql)
    {
        var filter = Filter(sql, ("@p", Berlin));

        Assert.NotNull(filter);
        Assert.Equal(["location"], filter.Path);
        // 10 km is about 0.09° of latitude and 0.15° of longitude at 52.5° N; the box is a little larger, never smaller.
        Assert.InRange(52.5 - filter.MinLatitude, 0.09, 0.1);
        Assert.InRange(filter.MaxLatitude - 52.5, 0.09, 0.1);
        Assert.InRange(13.4 - filter.MinLongitude, 0.148, 0.16);
        Assert.InRange(filter.MaxLongitude - 13.4, 0.148, 0.16);
    }

    [Fact]
    public void APolygon_GivesItsVerticesBox_OnANestedPath()
    {
        var filter = Filter("SELECT * FROM c WHERE ST_WITHIN(c.geometry.point, {'type':'Polygon','coordinates':[[[1,2],[5,2],[5,7],[1,7],[1,2]]]})");

        Assert.NotNull(filter);
        Assert.Equal(["geometry", "point"], filter.Path);
        Assert.Equal((1, 2, 5, 7), (filter.MinLongitude, filter.MinLatitude, filter.MaxLongitude, filter.MaxLatitude));
    }

    [Theory]
    [InlineData("SELECT * FROM c WHERE ST_DISTANCE(c.location, @p) < 10000 OR c.kind = 'weather'")] // OR: any document may match
    [InlineData("SELECT * FROM c WHERE ST_DISTANCE(c.location, @p) > 10000")] // outside a circle
    [InlineData("SELECT * FROM c WHERE ST_DISTANCE(c.location, @p) < c.radius")] // the radius depends on the document
    [InlineData("SELECT * FROM c WHERE NOT (ST_DISTANCE(c.location, @p) < 10000)")]
    [InlineData("SELECT * FROM c WHERE ST_DISTANCE(c.location, {'type':'Point','coordinates':[0, 89.99]}) < 10000")] // a pole inside
    [InlineData("SELECT * FROM c WHERE ST_DISTANCE(c.location, {'type':'Point','coordinates':[179.99, 0]}) < 10000")] // the antimeridian
    [InlineData("SELECT * FROM c WHERE ST_DISTANCE(c.location, @missing) < 10000")]
    [InlineData("SELECT * FROM c")]
    public void Filter_TermsAnIndexCannotServe_None(string sql) =>
        Assert.Null(Filter(sql, ("@p", Berlin)));
}
