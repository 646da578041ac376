namespace SensorPipeline.CosmosEmulator.Charging;

/// <summary>
/// Request charges as "Understand request units consumption in Azure Cosmos DB"
/// (https://learn.microsoft.com/azure/cosmos-db/understand-request-unit-consumption, page dated 2026-04-21) documents
/// them. The size part of a write follows the page's table (1 KB 4.95 … 2 MB 1,250 RU, interpolated linearly) except
/// that a document of 1 KB or less costs the 5.0 RU the page's worked examples use (the higher of the two figures);
/// each index term inserted or removed costs 0.2 RU:
/// <list type="bullet">
/// <item>create (and an upsert that creates): size + 0.2 × terms;</item>
/// <item>replace (and an upsert that replaces): size of the old document (its deletion) + size of the new one + 0.2 ×
/// terms removed + 0.2 × terms inserted (a term whose value changed is one of each);</item>
/// <item>patch: as replace, + 0.4 × properties modified;</item>
/// <item>delete, and a TTL expiry (a background delete taken from the container's throughput): size + 0.2 × terms;</item>
/// <item>point read: the table's read column; a query: 2.3 RU plus a point read per document it loads (all in scope
/// for a full scan, the matching ones when an index serves the filter) — "Optimize request cost" gives 1,000 RU for a
/// query returning 1,000 1-KB items.</item>
/// </list>
/// Not documented, chosen conservatively: a Patch or replace refused with 412 and a create refused with 409 cost a
/// point read of the existing document (the service must read it to decide).
/// </summary>
internal static class RequestCharge
{
    /// <summary>RU per index term inserted or removed.</summary>
    public const double PerTerm = 0.2;

    /// <summary>A Patch's base charge per modified property.</summary>
    public const double PatchPerProperty = 0.4;

    /// <summary>A query's fixed part (the smallest query charge the service reports).</summary>
    public const double QueryBase = 2.3;

    /// <summary>The worked examples' size charge of a 1-KB document (the table lists 4.95).</summary>
    public const double WriteOneKilobyte = 5.0;

    private static readonly (double Kb, double Read, double Write)[] Table =
    [
        (1, 1.00, WriteOneKilobyte), (2, 1.04, 6.29), (4, 1.14, 6.67), (8, 1.33, 7.04), (16, 1.67, 9.52), (32, 2.19, 11.23),
        (64, 4.76, 22.67), (128, 9.95, 48.19), (256, 20.28, 98.29), (512, 40.95, 184.57), (1024, 145.90, 625.00),
        (2048, 291.80, 1250.00),
    ];

    public static double PointRead(int bytes) => Round(Interpolate(bytes, static row => row.Read));

    /// <summary>The size part of writing (or deleting) a document of <paramref name="bytes"/>.</summary>
    public static double DocumentSize(int bytes) => Interpolate(bytes, static row => row.Write);

    public static double Create(int bytes, int terms) => Round(DocumentSize(bytes) + (PerTerm * terms));

    public static double Replace(int oldBytes, int newBytes, TermChanges changes) =>
        Round(DocumentSize(oldBytes) + DocumentSize(newBytes) + (PerTerm * changes.Removed) + (PerTerm * changes.Inserted));

    public static double Patch(int oldBytes, int newBytes, TermChanges changes) =>
        Round(Replace(oldBytes, newBytes, changes) + (PatchPerProperty * changes.ModifiedProperties));

    public static double Delete(int bytes, int terms) => Round(DocumentSize(bytes) + (PerTerm * terms));

    /// <summary>A query that loaded <paramref name="documents"/> documents of <paramref name="bytes"/> in all: the base
    /// plus a point read of their average size each.</summary>
    public static double Query(long documents, long bytes) =>
        Round(QueryBase + (documents == 0 ? 0 : documents * Interpolate((double)bytes / documents, static row => row.Read)));

    private static double Interpolate(double bytes, Func<(double Kb, double Read, double Write), double> column)
    {
        var kb = Math.Max(1, bytes / 1024.0);
        for (var i = 1; i < Table.Length; i++)
        {
            if (kb <= Table[i].Kb)
            {
                var (low, high) = (Table[i - 1], Table[i]);
                return column(low) + ((column(high) - column(low)) * (kb - low.Kb) / (high.Kb - low.Kb));
            }
        }

        return column(Table[^1]) * kb / Table[^1].Kb;
    }

    private static double Round(double value) => Math.Round(value, 2);
}
