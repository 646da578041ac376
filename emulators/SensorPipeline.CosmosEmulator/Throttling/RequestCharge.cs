namespace SensorPipeline.CosmosEmulator.Throttling;

/// <summary>
/// Estimated request charges from the table in "Understand request unit consumption in Azure Cosmos DB"
/// (https://learn.microsoft.com/azure/cosmos-db/understand-request-unit-consumption): the read and write cost of a
/// document by size under session consistency and default indexing, interpolated linearly between its rows
/// (1 KB: read 1.00, write 4.95 … 2 MB: read 291.80, write 1,250). Point reads and writes use the table; a delete costs
/// a write of the deleted document; a query costs 2.3 RU (the smallest query charge the service reports) plus a
/// tenth of a point read per document scanned plus a point read per KB returned. These are estimates for tests of
/// budgets and throttling, not the service's exact figures.
/// </summary>
internal static class RequestCharge
{
    private static readonly (double Kb, double Read, double Write)[] Table =
    [
        (1, 1.00, 4.95), (2, 1.04, 6.29), (4, 1.14, 6.67), (8, 1.33, 7.04), (16, 1.67, 9.52), (32, 2.19, 11.23),
        (64, 4.76, 22.67), (128, 9.95, 48.19), (256, 20.28, 98.29), (512, 40.95, 184.57), (1024, 145.90, 625.00),
        (2048, 291.80, 1250.00),
    ];

    public const double QueryBase = 2.3;

    public static double PointRead(int bytes) => Round(Interpolate(bytes, static row => row.Read));

    public static double Write(int bytes) => Round(Interpolate(bytes, static row => row.Write));

    public static double Query(long documentsScanned, long bytesReturned) =>
        Round(QueryBase + (0.1 * documentsScanned * Interpolate(1024, static row => row.Read)) + (bytesReturned / 1024.0));

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
