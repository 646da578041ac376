using SensorPipeline.EventHubs;

namespace SensorPipeline.EventHubs.Tests;

/// <summary>System time shifted by an adjustable offset: timers and delays stay real, "now" can jump ahead.</summary>
internal sealed class ShiftedTimeProvider : TimeProvider
{
    public TimeSpan Offset { get; set; }

    public override DateTimeOffset GetUtcNow() => System.GetUtcNow() + Offset;
}

internal static class TestData
{
    /// <summary>Sets a segment's durable mark — the length known durable and acknowledged and its complement, in the
    /// header the emulators' logs share — as a crash leaves it when the writes past <paramref name="length"/> were never
    /// acknowledged (the tests' way to make a torn tail of records a clean shutdown had already covered).</summary>
    public static void SetDurableMark(string segment, long length)
    {
        Span<byte> mark = stackalloc byte[Emulators.Common.DurableLogFormat.DurableMarkSize];
        Emulators.Common.DurableLogFormat.WriteDurableMark(mark, length);
        using var file = File.OpenHandle(segment, FileMode.Open, FileAccess.Write);
        RandomAccess.Write(file, mark, Emulators.Common.DurableLogFormat.DurableMarkOffset);
    }

    /// <summary>Where the records of a segment start, from its index file.</summary>
    public static long[] RecordStarts(string segment)
    {
        var index = File.ReadAllBytes(Path.ChangeExtension(segment, ".idx"));
        return [.. Enumerable.Range(0, index.Length / 4).Select(i => (long)System.Buffers.Binary.BinaryPrimitives.ReadInt32LittleEndian(index.AsSpan(i * 4)))];
    }

    public static readonly NamespaceConfig Config = new("testns", [
        new EventHubDescription("hub", 4, ["$Default", "group"]),
        new EventHubDescription("one", 1, ["$Default"]),
    ]);

    public static EventToAppend Event(string body, string? key = null, IReadOnlyDictionary<string, object?>? properties = null) =>
        new(System.Text.Encoding.UTF8.GetBytes(body), key, properties);

    public static string Text(StoredEvent e) => System.Text.Encoding.UTF8.GetString(e.Body.Span);
}
