using SensorPipeline.Plan.Model;

namespace SensorPipeline.Plan.Output;

/// <summary>
/// What a real bill may hold beside the plan's rows, each priced from infra/prices/&lt;region&gt;.json with its source and
/// date (unverified entries starred), none in the plan's total: the template deploys none of them, but a subscription's
/// policy or a later choice may add them.
/// </summary>
internal static class BillExtras
{
    public static void Write(TextWriter o, PlanResult plan, PriceBook book)
    {
        var t = new Table("beside the plan's rows (not in its total)", "what it would meter", "$/h", "source");
        var ru = plan.Cosmos.Containers.Sum(c => c.DeployedRu);
        var instances = plan.Functions.Instances;
        Row(t, book, "Cosmos DB continuous backup, 30-day tier", $"{plan.Cosmos.StorageGb:N0} GB", plan.Cosmos.StorageGb * Price(book, "cosmos.continuousBackup30Days.gbMonth") / 730, "cosmos.continuousBackup30Days.gbMonth");
        Row(t, book, "  (periodic backup as deployed, or continuous 7-day)", "2 copies", 0, "cosmos.continuousBackup30Days.gbMonth");
        Row(t, book, "Defender for Azure Cosmos DB", $"{ru:N0} RU/s provisioned", ru / 100.0 * Price(book, "defender.cosmos.hundredRuHour"), "defender.cosmos.hundredRuHour");
        Row(t, book, "Defender for Storage (per account)", "1 account", Price(book, "defender.storage.accountHour"), "defender.storage.accountHour");
        Row(t, book, "Defender for App Service, if it meters Flex instances", $"{instances} always-ready instances", instances * Price(book, "defender.appService.instanceHour"), "defender.appService.instanceHour");
        Row(t, book, "Bandwidth: ingress and in-region transfer", "every hop of the pipeline", 0, "bandwidth.internetEgressGb");
        Row(t, book, "Bandwidth: internet egress (verify's reads, a remote dashboard)", "per GB read from outside Azure", Price(book, "bandwidth.internetEgressGb"), "bandwidth.internetEgressGb");
        t.WriteTo(o);
        foreach (var key in Keys)
        {
            var e = book.PriceEntry(key);
            o.WriteLine($"  {e.Key} = {e.Value} {e.Unit} ({e.Region}, {e.Date}): {e.Source}");
        }
    }

    private static readonly string[] Keys =
    [
        "cosmos.continuousBackup30Days.gbMonth", "defender.cosmos.hundredRuHour", "defender.storage.accountHour",
        "defender.appService.instanceHour", "bandwidth.internetEgressGb",
    ];

    private static double Price(PriceBook book, string key) => book.PriceEntry(key).Value;

    private static void Row(Table t, PriceBook book, string item, string meters, double perHour, string key)
    {
        var entry = book.PriceEntry(key);
        var unit = key == "bandwidth.internetEgressGb" && perHour > 0 ? " per GB" : "";
        t.Add(item, meters, $"{perHour:N2}{(entry.Verified ? "" : "*")}{unit}", $"{entry.Key} ({entry.Date}{(entry.Verified ? "" : ", unverified")})");
    }
}
