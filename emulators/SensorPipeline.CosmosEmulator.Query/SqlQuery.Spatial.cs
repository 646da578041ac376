namespace SensorPipeline.CosmosEmulator.Query;

public sealed partial class SqlQuery
{
    /// <summary>
    /// A box that holds every Point the WHERE clause can match, when one of its top-level AND terms is
    /// <c>ST_DISTANCE(c.path, point) &lt; r</c> (or <c>&lt;=</c>, either argument order, or <c>r &gt; ST_DISTANCE(…)</c>)
    /// or <c>ST_WITHIN(c.path, polygon)</c> with a point, radius and polygon that do not depend on the document (constants
    /// or parameters). Null when there is no such term, or when the box would cross a pole or the antimeridian (the
    /// store then scans).
    /// </summary>
    public SpatialFilter? FindSpatialFilter(IReadOnlyList<KeyValuePair<string, JsonElement>> parameters) =>
        _model.Where is null || _model.Alias is null ? null : SpatialFilters.Find(_model.Where, _model.Parameters, parameters);
}
