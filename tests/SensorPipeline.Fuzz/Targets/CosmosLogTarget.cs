using Microsoft.Extensions.Logging.Abstractions;
using SensorPipeline.CosmosEmulator.Documents;
using SensorPipeline.CosmosEmulator.Hosting;
using SensorPipeline.CosmosEmulator.Log;
using SensorPipeline.Emulators.Common;

namespace SensorPipeline.Fuzz.Targets;

/// <summary>
/// A mutation log file through the Cosmos DB emulator's start (<see cref="EmulatorStore"/> opening its
/// <see cref="MutationLog"/>: header, durable mark, replay through <see cref="MutationCodec"/> into databases,
/// containers and documents, torn-tail cut, compaction), then every document read back. The input's first byte is a
/// mode: with bit 0 set the harness seals each record it can frame with its CRC, so the fuzzer reaches the decoder
/// and the replay behind the checksum. The only refusal is <see cref="InvalidDataException"/>: the start refused,
/// naming the file and byte.
/// </summary>
internal static class CosmosLogTarget
{
    internal static void Run(byte[] input)
    {
        if (LogInput.Write(input, "cosmos", MutationLog.FileName, Seal) is not { } directory)
        {
            return;
        }

        var options = new CosmosEmulatorOptions { Durability = DurabilityMode.None };
        var store = LogInput.OpenNamingTheFile(MutationLog.FileName, () => EmulatorStore.Open(directory, options, TimeProvider.System, NullLogger.Instance, new LogStorage()));
        try
        {
            foreach (var database in store.Catalog.Databases)
            {
                // What the gateway reads of every database on its first request.
                _ = (database.Id, database.Rid, database.SelfLink, database.ETag);
                foreach (var container in store.Catalog.ContainersOf(database))
                {
                    foreach (var (_, _, document) in container.Entries())
                    {
                        _ = document.Json.Length;
                    }
                }
            }
        }
        finally
        {
            store.DisposeAsync().AsTask().GetAwaiter().GetResult();
        }
    }

    /// <summary>Gives the file a header of the current version (keeping its durable mark) and seals each record it can frame.</summary>
    private static void Seal(Span<byte> file) =>
        LogInput.SealRecords(file, LogFormat.FileHeaderSize, LogFormat.Magic, LogFormat.Version, LogFormat.PayloadLength,
            (record, _) => DurableLogFormat.Seal(record));
}
