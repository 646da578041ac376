using System.Buffers.Binary;
using FsCheck;
using FsCheck.Fluent;

namespace SensorPipeline.EventHubs.Tests;

/// <summary>Whatever byte the newest segment is cut at — past its durable mark, as a crash tears only writes that were
/// never acknowledged — recovery keeps exactly the records that end before the cut, intact, and the next append
/// continues the sequence.</summary>
[Trait("Category", "Fast")]
public sealed class TornTailPropertyTests
{
    private static readonly NamespaceConfig Config = new("p", [new EventHubDescription("one", 1, ["$Default"])]);

    [Fact]
    public void Recovery_CutAtAnyByte_KeepsExactlyTheWholeRecordsBeforeTheCut()
    {
        var gen =
            from sizes in Gen.ListOf(Gen.Choose(0, 300)).Where(l => l.Count is > 0 and <= 12)
            from cut in Gen.Choose(0, 10_000)
            select (Sizes: sizes.ToArray(), Cut: cut);
        Prop.ForAll(gen.ToArbitrary(), c => CheckAsync(c.Sizes, c.Cut).GetAwaiter().GetResult())
            .Check(FsCheck.Config.QuickThrowOnFailure.WithMaxTest(40));
    }

    private static async Task<bool> CheckAsync(int[] sizes, int cutSeed)
    {
        using var dir = new TempDirectory();
        var bodies = sizes.Select((size, i) => Enumerable.Range(0, size).Select(b => (byte)(b + i)).ToArray()).ToArray();
        await using (var ns = EventHubsNamespace.Open(Config, dir.Path, new EventLogOptions(), TimeProvider.System))
        {
            foreach (var body in bodies)
            {
                await ns.AppendAsync("one", "0", [new EventToAppend(body, null, null)], default);
            }
        }

        var partition = Path.Combine(dir.Path, "one", "0");
        var segment = Directory.GetFiles(partition, "*.log").Single();
        var index = await File.ReadAllBytesAsync(Path.ChangeExtension(segment, ".idx"));
        var length = new FileInfo(segment).Length;
        var ends = Enumerable.Range(1, sizes.Length).Select(i => i < sizes.Length ? BinaryPrimitives.ReadInt32LittleEndian(index.AsSpan(i * 4)) : length).ToArray();
        const int header = SensorPipeline.EventHubs.Storage.RecordFormat.SegmentHeaderSize;
        var cut = header + (cutSeed % (length - header + 1));

        // The crash came after the records that end before the cut were acknowledged, and before the others were.
        TestData.SetDurableMark(segment, ends.Where(end => end <= cut).DefaultIfEmpty(header).Max());
        await using (var stream = new FileStream(segment, FileMode.Open))
        {
            stream.SetLength(cut);
        }

        var expected = ends.Count(end => end <= cut);
        await using var reopened = EventHubsNamespace.Open(Config, dir.Path, new EventLogOptions(), TimeProvider.System);
        var events = await reopened.ReadAsync("one", "0", 0, 0, 100, TimeSpan.Zero, default);
        var next = await reopened.AppendAsync("one", "0", [new EventToAppend(new byte[] { 42 }, null, null)], default);
        return events.Count == expected
            && events.Select((e, i) => e.SequenceNumber == i && e.Body.Span.SequenceEqual(bodies[i])).All(ok => ok)
            && next.FirstSequenceNumber == expected;
    }
}
