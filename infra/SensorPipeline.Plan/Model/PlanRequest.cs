namespace SensorPipeline.Plan.Model;

/// <summary>What the plan is asked for.</summary>
/// <param name="Rate">Readings per second, steady (at least 1).</param>
/// <param name="ReadingsPerEvent">Readings the producers pack into one ingestion event (default 200, loadgen's).</param>
/// <param name="Devices">Distinct devices sending; default one reading per device per second (= rate).</param>
/// <param name="RetentionDays">Days a reading stays in <c>readings</c> (its TTL); default 7.</param>
/// <param name="Reserved">Price Cosmos DB throughput with 1-year reserved capacity.</param>
/// <param name="Zones">Zone-redundant Cosmos DB account (availability zones).</param>
/// <param name="Expiry">How readings leave <c>readings</c> after the retention: TTL deletes (default) or dropped windows.</param>
/// <param name="WindowDays">With <see cref="Expiry.Windows"/>: days of readings per container (default 1).</param>
/// <param name="Private">The private network choice: private endpoints for every data plane (NETWORK_ISOLATION=private).</param>
internal sealed record PlanRequest(double Rate, int ReadingsPerEvent, double Devices, double RetentionDays, bool Reserved, bool Zones,
    Expiry Expiry = Expiry.Ttl, double WindowDays = 1, bool Private = false)
{
    /// <summary>The rate the cost targets are stated at.</summary>
    public const double TargetRate = 100_000;
}

/// <summary>How readings expire: <see cref="Ttl"/>, a background delete per reading charged to the container's RU/s; or
/// <see cref="Windows"/>, a container per time window, dropped whole once all of it is past the retention (no RU), each
/// window no longer written kept at its minimum RU/s until then.</summary>
internal enum Expiry
{
    Ttl,
    Windows,
}
