using System.Globalization;

namespace SensorPipeline.CosmosEmulator.Bench;

/// <summary><c>./pipeline bench cosmos [--docs 500000] [--reads 100000] [--bulk 100000] [--concurrency 32]
/// [--devices 1000] [--read-many 100] [--store both|emulator|standin]</c>.</summary>
/// <param name="Documents">Documents loaded by single upserts, after which memory is read. Default 500,000; 1,000 to 10,000,000.</param>
/// <param name="Reads">Point reads of loaded documents. Default 100,000 (at most <paramref name="Documents"/>); 1 to 10,000,000.</param>
/// <param name="Bulk">Documents written by each of bulk and transactional batch. Default 100,000; 1,000 to 10,000,000.</param>
/// <param name="Concurrency">Requests in flight for upserts and reads. Default 32; 1 to 1,024.</param>
/// <param name="Devices">Partition key values (devices) the documents spread over. Default 1,000; 1 to 100,000.</param>
/// <param name="ReadMany">ReadMany requests of 100 (id, device) pairs each. Default 100; 1 to 100,000.</param>
/// <param name="Stores">Which stores to measure. Default both.</param>
internal sealed record BenchArguments(int Documents, int Reads, int Bulk, int Concurrency, int Devices, int ReadMany, IReadOnlyList<string> Stores)
{
    public const string Usage = "usage: bench cosmos [--docs 500000] [--reads 100000] [--bulk 100000] [--concurrency 32] [--devices 1000] [--read-many 100] [--store both|emulator|standin]";

    public static BenchArguments Parse(IReadOnlyList<string> args)
    {
        int documents = 500_000, reads = 100_000, bulk = 100_000, concurrency = 32, devices = 1000, readMany = 100;
        string[] stores = [Store.Emulator, Store.StandIn];
        for (var i = 0; i < args.Count; i += 2)
        {
            var option = args[i];
            var value = i + 1 < args.Count ? args[i + 1] : throw new ArgumentException($"{option} needs a value. {Usage}");
            switch (option)
            {
                case "--docs": documents = Number(option, value, 1000, 10_000_000); break;
                case "--reads": reads = Number(option, value, 1, 10_000_000); break;
                case "--bulk": bulk = Number(option, value, 1000, 10_000_000); break;
                case "--concurrency": concurrency = Number(option, value, 1, 1024); break;
                case "--devices": devices = Number(option, value, 1, 100_000); break;
                case "--read-many": readMany = Number(option, value, 1, 100_000); break;
                case "--store":
                    stores = value switch
                    {
                        "both" => stores,
                        Store.Emulator or Store.StandIn => [value],
                        _ => throw new ArgumentException($"--store: '{value}' must be both, {Store.Emulator} or {Store.StandIn}"),
                    };
                    break;
                default: throw new ArgumentException($"unknown option {option}. {Usage}");
            }
        }

        return new BenchArguments(documents, Math.Min(reads, documents), bulk, concurrency, devices, readMany, stores);
    }

    private static int Number(string option, string text, int min, int max) =>
        int.TryParse(text.Replace("_", "", StringComparison.Ordinal), NumberStyles.None, CultureInfo.InvariantCulture, out var value) && value >= min && value <= max
            ? value
            : throw new ArgumentException($"{option}: '{text}' must be a whole number from {min:N0} to {max:N0}");
}
