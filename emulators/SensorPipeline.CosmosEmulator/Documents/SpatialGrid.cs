using SensorPipeline.CosmosEmulator.Query;

namespace SensorPipeline.CosmosEmulator.Documents;

/// <summary>
/// A container's spatial index on one property path: every document whose value there is a GeoJSON Point, bucketed
/// in a fixed grid of <see cref="CellDegrees"/>° cells (the service tessellates into quadtree cells on a Hilbert curve;
/// fixed cells are enough for a local store). Kept current by <see cref="ContainerState"/> on every write and
/// removal; the caller holds the container's gate.
/// </summary>
internal sealed class SpatialGrid(string[] path)
{
    /// <summary>Cell edge in degrees: 0.5° (about 55 km north–south), so a city-sized query reads a cell or four.</summary>
    public const double CellDegrees = 0.5;
    private const int Columns = (int)(360 / CellDegrees) + 1;

    private readonly Dictionary<int, Dictionary<DocumentKey, (double Lon, double Lat)>> _cells = [];
    private readonly Dictionary<DocumentKey, int> _cellOf = [];

    /// <summary>Indexes (or re-indexes) a document; one without a valid Point at the path leaves the index.</summary>
    public void Set(string partitionKey, string id, byte[] json)
    {
        var key = new DocumentKey(partitionKey, id);
        Remove(key);
        if (!TryReadPoint(json, path, out var lon, out var lat))
        {
            return;
        }

        var cell = Cell(Row(lat), Column(lon));
        if (!_cells.TryGetValue(cell, out var entries))
        {
            _cells[cell] = entries = [];
        }

        entries[key] = (lon, lat);
        _cellOf[key] = cell;
    }

    public void Remove(string partitionKey, string id) => Remove(new DocumentKey(partitionKey, id));

    /// <summary>The documents whose Point lies in the filter's box (of one partition when <paramref name="partitionKey"/>
    /// is set): reads only the cells the box covers, or every populated cell when there are fewer of those.</summary>
    public List<DocumentKey> Find(SpatialFilter filter, string? partitionKey)
    {
        var result = new List<DocumentKey>();
        int rowFrom = Row(filter.MinLatitude), rowTo = Row(filter.MaxLatitude), columnFrom = Column(filter.MinLongitude), columnTo = Column(filter.MaxLongitude);
        var covered = (long)(rowTo - rowFrom + 1) * (columnTo - columnFrom + 1);
        if (covered > _cells.Count)
        {
            foreach (var entries in _cells.Values)
            {
                Collect(entries, filter, partitionKey, result);
            }

            return result;
        }

        for (var row = rowFrom; row <= rowTo; row++)
        {
            for (var column = columnFrom; column <= columnTo; column++)
            {
                if (_cells.TryGetValue(Cell(row, column), out var entries))
                {
                    Collect(entries, filter, partitionKey, result);
                }
            }
        }

        return result;
    }

    private static void Collect(Dictionary<DocumentKey, (double Lon, double Lat)> entries, SpatialFilter filter, string? partitionKey, List<DocumentKey> result)
    {
        foreach (var (key, (lon, lat)) in entries)
        {
            if (filter.Contains(lon, lat) && (partitionKey is null || key.PartitionKey == partitionKey))
            {
                result.Add(key);
            }
        }
    }

    private void Remove(DocumentKey key)
    {
        if (!_cellOf.Remove(key, out var cell))
        {
            return;
        }

        var entries = _cells[cell];
        entries.Remove(key);
        if (entries.Count == 0)
        {
            _cells.Remove(cell);
        }
    }

    private static int Row(double lat) => (int)Math.Floor((Math.Clamp(lat, -90, 90) + 90) / CellDegrees);

    private static int Column(double lon) => (int)Math.Floor((Math.Clamp(lon, -180, 180) + 180) / CellDegrees);

    private static int Cell(int row, int column) => (row * Columns) + column;

    /// <summary>The GeoJSON Point at <paramref name="path"/>: <c>{"type":"Point","coordinates":[lon, lat(, alt)]}</c>
    /// with a valid longitude and latitude, as ST_DISTANCE and ST_WITHIN accept it.</summary>
    private static bool TryReadPoint(byte[] json, string[] path, out double lon, out double lat)
    {
        (lon, lat) = (0, 0);
        using var document = JsonDocument.Parse(json);
        var at = document.RootElement;
        foreach (var name in path)
        {
            if (at.ValueKind != JsonValueKind.Object || !at.TryGetProperty(name, out at))
            {
                return false;
            }
        }

        if (at.ValueKind != JsonValueKind.Object
            || !at.TryGetProperty("type", out var type) || type.ValueKind != JsonValueKind.String || !type.ValueEquals("Point")
            || !at.TryGetProperty("coordinates", out var coordinates) || coordinates.ValueKind != JsonValueKind.Array
            || coordinates.GetArrayLength() is not (2 or 3)
            || coordinates[0].ValueKind != JsonValueKind.Number || coordinates[1].ValueKind != JsonValueKind.Number)
        {
            return false;
        }

        (lon, lat) = (coordinates[0].GetDouble(), coordinates[1].GetDouble());
        return lon is >= -180 and <= 180 && lat is >= -90 and <= 90;
    }
}

/// <summary>A document's place in its container.</summary>
internal readonly record struct DocumentKey(string PartitionKey, string Id);
