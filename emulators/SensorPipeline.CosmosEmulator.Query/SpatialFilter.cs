namespace SensorPipeline.CosmosEmulator.Query;

/// <summary>
/// What a spatial index can do for a query: every document the WHERE clause can match has a GeoJSON Point at
/// <see cref="Path"/> inside this longitude/latitude box (degrees, WGS-84). A store with a spatial index on the path
/// loads only those documents; the query then evaluates its whole WHERE clause on them, so the answer is the same as a
/// full scan's.
/// </summary>
/// <param name="Path">The property path from the document root, e.g. <c>["location"]</c> for <c>c.location</c>.</param>
/// <param name="MinLongitude">West edge, degrees.</param>
/// <param name="MinLatitude">South edge, degrees.</param>
/// <param name="MaxLongitude">East edge, degrees.</param>
/// <param name="MaxLatitude">North edge, degrees.</param>
public sealed record SpatialFilter(IReadOnlyList<string> Path, double MinLongitude, double MinLatitude, double MaxLongitude, double MaxLatitude)
{
    /// <summary>True when the position lies in the box (edges included).</summary>
    public bool Contains(double longitude, double latitude) =>
        longitude >= MinLongitude && longitude <= MaxLongitude && latitude >= MinLatitude && latitude <= MaxLatitude;
}
