namespace SensorPipeline.CosmosEmulator.Query.Evaluation;

/// <summary>
/// Finds the WHERE term a spatial index can serve and turns it into a bounding box (<see cref="SpatialFilter"/>).
/// The box for <c>ST_DISTANCE(p, centre) &lt; r</c> is the classic one for a circle on a sphere ("Finding Points Within a
/// Distance of a Latitude/Longitude Using Bounding Coordinates", Jan Philip Matuschek,
/// http://janmatuschek.de/LatitudeLongitudeBoundingCoordinates), taken on a sphere of the WGS-84 ellipsoid's smallest
/// radius of curvature and widened by 1 %, so it holds every point within r by the ellipsoidal distance
/// <see cref="Spatial.Distance"/> computes. A polygon's box is its vertices' (its edges are straight in
/// longitude/latitude, as <see cref="Spatial.Within"/> tests them).
/// </summary>
internal static class SpatialFilters
{
    /// <summary>a(1 − e²): the meridional radius of curvature at the equator, the smallest on the ellipsoid (metres).</summary>
    private const double SmallestRadius = 6_335_439.0;
    private const double Margin = 1.01;

    public static SpatialFilter? Find(Expr where, IReadOnlyList<string> names, IReadOnlyList<KeyValuePair<string, JsonElement>> parameters)
    {
        QValue[] values;
        try
        {
            values = ParameterBinder.Bind(names, parameters);
        }
        catch (SqlQueryException)
        {
            return null; // the execution reports the missing parameter
        }

        return Term(where, new EvalContext(values) { Root = QValue.Undefined });
    }

    private static SpatialFilter? Term(Expr expr, EvalContext ctx)
    {
        switch (expr)
        {
            case AndExpr and:
                return Term(and.Left, ctx) ?? Term(and.Right, ctx);
            case BinaryExpr { Op: BinaryOp.Less or BinaryOp.LessOrEqual, Left: FunctionExpr distance } binary when IsDistance(distance):
                return Circle(distance, binary.Right, ctx);
            case BinaryExpr { Op: BinaryOp.Greater or BinaryOp.GreaterOrEqual, Right: FunctionExpr distance } binary when IsDistance(distance):
                return Circle(distance, binary.Left, ctx);
            case FunctionExpr { Function.Name: "ST_WITHIN" } within:
                return Box(within, ctx);
            default:
                return null;
        }
    }

    private static bool IsDistance(FunctionExpr function) => function.Function.Name == "ST_DISTANCE";

    private static SpatialFilter? Circle(FunctionExpr distance, Expr radiusExpr, EvalContext ctx)
    {
        if (!PathAndConstant(distance.Args[0], distance.Args[1], out var path, out var centreExpr)
            && !PathAndConstant(distance.Args[1], distance.Args[0], out path, out centreExpr))
        {
            return null;
        }

        if (References(radiusExpr) || radiusExpr.Eval(ctx) is not { Kind: QKind.Number } radius || !double.IsFinite(radius.Number) || radius.Number < 0
            || !TryPosition(centreExpr!.Eval(ctx), out var lon, out var lat))
        {
            return null;
        }

        var angle = radius.Number * Margin / SmallestRadius;
        var phi = Radians(lat);
        var (minPhi, maxPhi) = (phi - angle, phi + angle);
        if (minPhi <= -Math.PI / 2 || maxPhi >= Math.PI / 2 || Math.Sin(angle) >= Math.Cos(phi))
        {
            return null; // a pole inside the circle: every longitude
        }

        var deltaLambda = Math.Asin(Math.Sin(angle) / Math.Cos(phi));
        var (minLon, maxLon) = (lon - Degrees(deltaLambda), lon + Degrees(deltaLambda));
        return minLon < -180 || maxLon > 180 ? null : new SpatialFilter(path!, minLon, Degrees(minPhi), maxLon, Degrees(maxPhi));
    }

    private static SpatialFilter? Box(FunctionExpr within, EvalContext ctx)
    {
        if (!PathAndConstant(within.Args[0], within.Args[1], out var path, out var areaExpr) || areaExpr!.Eval(ctx) is not { Kind: QKind.Object } area)
        {
            return null;
        }

        var type = area.Property("type");
        var coordinates = area.Property("coordinates");
        if (coordinates.Kind != QKind.Array || coordinates.ArrayLength == 0)
        {
            return null;
        }

        double minLon = double.MaxValue, minLat = double.MaxValue, maxLon = double.MinValue, maxLat = double.MinValue;
        // The outer ring bounds a Polygon (holes lie inside it); every polygon's outer ring bounds a MultiPolygon.
        var outerRings = type.StringEquals("Polygon") ? [coordinates.ArrayItem(0)]
            : type.StringEquals("MultiPolygon") ? Enumerable.Range(0, coordinates.ArrayLength).Select(i => coordinates.ArrayItem(i).ArrayItem(0)).ToArray()
            : (QValue[]?)null;
        if (outerRings is null)
        {
            return null;
        }

        foreach (var ring in outerRings)
        {
            if (ring.Kind != QKind.Array || ring.ArrayLength == 0)
            {
                return null; // invalid: ST_WITHIN is undefined for every document, a scan says so
            }

            for (var i = 0; i < ring.ArrayLength; i++)
            {
                if (!TryPosition(ring.ArrayItem(i), out var lon, out var lat, isPoint: false))
                {
                    return null;
                }

                (minLon, maxLon) = (Math.Min(minLon, lon), Math.Max(maxLon, lon));
                (minLat, maxLat) = (Math.Min(minLat, lat), Math.Max(maxLat, lat));
            }
        }

        return new SpatialFilter(path!, minLon, minLat, maxLon, maxLat);
    }

    /// <summary>True when <paramref name="pathExpr"/> is a property path from the document root and
    /// <paramref name="constantExpr"/> does not depend on the document.</summary>
    private static bool PathAndConstant(Expr pathExpr, Expr constantExpr, out IReadOnlyList<string>? path, out Expr? constant)
    {
        (path, constant) = (null, null);
        var names = new List<string>();
        var at = pathExpr;
        while (at is MemberExpr member)
        {
            names.Add(member.Name);
            at = member.Target;
        }

        if (at is not RootExpr || names.Count == 0 || References(constantExpr))
        {
            return false;
        }

        names.Reverse();
        (path, constant) = (names, constantExpr);
        return true;
    }

    private static bool References(Expr expr) => expr is RootExpr || expr.Children.Any(References);

    /// <summary>A GeoJSON Point's position (or, with <paramref name="isPoint"/> false, a bare [lon, lat] position).</summary>
    private static bool TryPosition(in QValue value, out double lon, out double lat, bool isPoint = true)
    {
        (lon, lat) = (0, 0);
        var position = value;
        if (isPoint)
        {
            if (value.Kind != QKind.Object || !value.Property("type").StringEquals("Point"))
            {
                return false;
            }

            position = value.Property("coordinates");
        }

        if (position.Kind != QKind.Array || position.ArrayLength < 2
            || position.ArrayItem(0) is not { Kind: QKind.Number } x || position.ArrayItem(1) is not { Kind: QKind.Number } y
            || x.Number is < -180 or > 180 || y.Number is < -90 or > 90)
        {
            return false;
        }

        (lon, lat) = (x.Number, y.Number);
        return true;
    }

    private static double Radians(double degrees) => degrees * Math.PI / 180;

    private static double Degrees(double radians) => radians * 180 / Math.PI;
}
