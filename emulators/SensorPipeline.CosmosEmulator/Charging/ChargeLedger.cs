namespace SensorPipeline.CosmosEmulator.Charging;

/// <summary>What a charge was for: the operations the ledger totals apart.</summary>
internal enum ChargedOperation
{
    Create,
    Replace,
    Patch,
    Delete,

    /// <summary>A TTL expiry: a background delete the service takes from the container's provisioned throughput.</summary>
    Expiry,
    Read,
    Query,

    /// <summary>A write refused with 412 (ETag or Patch filter predicate) or 409 (create of an existing id).</summary>
    Refused,
}

/// <summary>One container's request units and operation counts by <see cref="ChargedOperation"/>, since start or the
/// last reset (the admin endpoint <c>GET/DELETE /_emulator/charges</c>). Charges are kept in hundredths of an RU, the
/// precision the service reports, so concurrent adds are exact. Besides the charges it counts bulk requests and the
/// operations they carried: the SDK's bulk mode sends one request per partition key range, so operations per request
/// show how well a client's writes group by range.</summary>
internal sealed class ChargeLedger
{
    private static readonly ChargedOperation[] Operations = Enum.GetValues<ChargedOperation>();
    private readonly long[] _centiUnits = new long[Operations.Length];
    private readonly long[] _counts = new long[Operations.Length];
    private long _bulkRequests;
    private long _bulkOperations;

    public void Add(ChargedOperation operation, double requestUnits)
    {
        Interlocked.Add(ref _centiUnits[(int)operation], (long)Math.Round(requestUnits * 100));
        Interlocked.Increment(ref _counts[(int)operation]);
    }

    /// <summary>A bulk request (a non-atomic batch) of <paramref name="operations"/> operations.</summary>
    public void AddBulkRequest(int operations)
    {
        Interlocked.Increment(ref _bulkRequests);
        Interlocked.Add(ref _bulkOperations, operations);
    }

    public double RequestUnits(ChargedOperation operation) => Interlocked.Read(ref _centiUnits[(int)operation]) / 100.0;

    public long Count(ChargedOperation operation) => Interlocked.Read(ref _counts[(int)operation]);

    public void Reset()
    {
        for (var i = 0; i < Operations.Length; i++)
        {
            Interlocked.Exchange(ref _centiUnits[i], 0);
            Interlocked.Exchange(ref _counts[i], 0);
        }

        Interlocked.Exchange(ref _bulkRequests, 0);
        Interlocked.Exchange(ref _bulkOperations, 0);
    }

    /// <summary><c>{"requests":n,"operations":m}</c>: the bulk requests and the operations they carried.</summary>
    public void WriteBulk(Utf8JsonWriter writer)
    {
        ArgumentNullException.ThrowIfNull(writer);
        writer.WriteStartObject();
        writer.WriteNumber("requests", Interlocked.Read(ref _bulkRequests));
        writer.WriteNumber("operations", Interlocked.Read(ref _bulkOperations));
        writer.WriteEndObject();
    }

    /// <summary><c>{"create":{"count":n,"requestUnits":x},…}</c> for the operations charged at least once.</summary>
    public void Write(Utf8JsonWriter writer)
    {
        ArgumentNullException.ThrowIfNull(writer);
        writer.WriteStartObject();
        foreach (var operation in Operations)
        {
            if (Count(operation) == 0)
            {
                continue;
            }

            writer.WriteStartObject(JsonNamingPolicy.CamelCase.ConvertName(operation.ToString()));
            writer.WriteNumber("count", Count(operation));
            writer.WriteNumber("requestUnits", RequestUnits(operation));
            writer.WriteEndObject();
        }

        writer.WriteEndObject();
    }
}
