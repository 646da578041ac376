using System.Buffers.Binary;
using Microsoft.Extensions.Logging.Abstractions;
using SensorPipeline.Emulators.Common;
using SensorPipeline.EventHubs;
using SensorPipeline.EventHubs.Storage;

namespace SensorPipeline.Fuzz.Targets;

/// <summary>
/// A partition's segment file through the Event Hubs emulator's recovery (<see cref="PartitionLog"/>: header, durable
/// mark, record scan, torn-tail cut) and then its reader (<see cref="RecordDecoder"/>, the stored properties). The
/// input's first byte is a mode: with bit 0 set the harness seals each record it finds (sequence number and CRC) so
/// the fuzzer reaches what lies behind the checksum — a record the CRC vouches for but whose fields do not add up.
/// The only refusal is <see cref="InvalidDataException"/>: the start refused, naming the file and byte.
/// </summary>
internal static class EventHubsLogTarget
{
    internal static void Run(byte[] input)
    {
        if (LogInput.Write(input, "eventhubs", Segment.FileName(0), Seal) is not { } directory)
        {
            return;
        }

        var options = new EventLogOptions { Durability = DurabilityMode.None };
        var log = LogInput.OpenNamingTheFile(Segment.FileName(0), () => PartitionLog.Open("hub", "0", directory, options, TimeProvider.System, NullLogger.Instance, new LogStorage(), new EventHubsCounters()));
        try
        {
            var events = log.ReadAsync(0, 0, int.MaxValue, TimeSpan.Zero, CancellationToken.None).AsTask().GetAwaiter().GetResult();
            foreach (var e in events)
            {
                _ = e.Properties.Count;
                _ = e.Body.Length;
            }
        }
        finally
        {
            log.DisposeAsync().AsTask().GetAwaiter().GetResult();
        }
    }

    /// <summary>Gives the file a valid header (keeping its base offset and durable mark) and stamps each record it can
    /// frame with the next sequence number and its CRC, as the writer does.</summary>
    private static void Seal(Span<byte> file)
    {
        LogInput.SealRecords(file, RecordFormat.SegmentHeaderSize, RecordFormat.Magic, RecordFormat.Version, RecordFormat.PayloadLength,
            (record, sequence) => RecordFormat.Stamp(record, sequence, RecordFormat.TicksOf(record)));
        if (file.Length >= RecordFormat.SegmentHeaderSize)
        {
            BinaryPrimitives.WriteInt64LittleEndian(file[DurableLogFormat.HeaderSize..], 0); // the base sequence number
        }
    }
}
