using System.Text.Json;

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
/// precision the service reports, so concurrent adds are exact.</summary>
internal sealed class ChargeLedger
{
    private static readonly ChargedOperation[] Operations = Enum.GetValues<ChargedOperation>();
    private readonly long[] _centiUnits = new long[Operations.Length];
    private readonly long[] _counts = new long[Operations.Length];

    public void Add(ChargedOperation operation, double requestUnits)
    {
        Interlocked.Add(ref _centiUnits[(int)operation], (long)Math.Round(requestUnits * 100));
        Interlocked.Increment(ref _counts[(int)operation]);
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
