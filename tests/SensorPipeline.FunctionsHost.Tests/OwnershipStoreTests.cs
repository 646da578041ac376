using Microsoft.Extensions.Time.Testing;
using SensorPipeline.FunctionsHost.Ownership;

namespace SensorPipeline.FunctionsHost.Tests;

[Trait("Category", "Fast")]
public sealed class OwnershipStoreTests : IDisposable
{
    private static readonly OwnershipScope Scope = new("Seismic", "$Default");
    private readonly TempDirectory _dir = new("fh-ows-");
    private readonly FakeTimeProvider _time = new(new DateTimeOffset(2026, 1, 1, 0, 0, 0, TimeSpan.Zero));

    public void Dispose() => _dir.Dispose();

    [Fact]
    public async Task TryClaimAsync_ConcurrentClaims_CompareAndSwapOnTheVersion()
    {
        var store = new FileOwnershipStore(_dir.Path, _time);
        var first = (await store.TryClaimAsync(Scope, new OwnershipClaim("3", "a", 0), CancellationToken.None))!;
        Assert.Equal(1, first.Version);
        Assert.Equal(_time.GetUtcNow(), first.LastModified);

        // A second "create" and a claim with a stale version both lose and write nothing.
        Assert.Null(await store.TryClaimAsync(Scope, new OwnershipClaim("3", "b", 0), CancellationToken.None));
        _time.Advance(TimeSpan.FromSeconds(10));
        var renewed = (await store.TryClaimAsync(Scope, new OwnershipClaim("3", "a", 1), CancellationToken.None))!;
        Assert.Null(await store.TryClaimAsync(Scope, new OwnershipClaim("3", "b", 1), CancellationToken.None));

        // Another store on the same directory (another process) sees the newest record, case-insensitively by hub.
        var records = await new FileOwnershipStore(_dir.Path, _time).ListAsync(Scope with { Hub = "seismic" }, CancellationToken.None);
        Assert.Equal([renewed], records);
        Assert.Equal(2, renewed.Version);

        // Relinquish empties the owner and keeps a version to claim against.
        var released = (await store.TryClaimAsync(Scope, new OwnershipClaim("3", string.Empty, 2), CancellationToken.None))!;
        Assert.Equal(string.Empty, (await store.ListAsync(Scope, CancellationToken.None)).Single().OwnerId);
        Assert.NotNull(await store.TryClaimAsync(Scope, new OwnershipClaim("3", "b", released.Version), CancellationToken.None));
    }

    [Fact]
    public async Task ListAsync_TornWrite_ThePreviousRecord()
    {
        var store = new FileOwnershipStore(_dir.Path, _time);
        await store.TryClaimAsync(Scope, new OwnershipClaim("0", "a", 0), CancellationToken.None);
        await store.TryClaimAsync(Scope, new OwnershipClaim("0", "a", 1), CancellationToken.None);

        // Version 3 goes to slot 1 (version 1's); a crash mid-write leaves half a line there.
        var slot1 = Directory.GetFiles(_dir.Path, "0.1.ownership", SearchOption.AllDirectories).Single();
        await File.WriteAllTextAsync(slot1, "3 b 2026-01-01T00:0");

        var record = (await store.ListAsync(Scope, CancellationToken.None)).Single();
        Assert.Equal(("a", 2L), (record.OwnerId, record.Version));
        Assert.NotNull(await store.TryClaimAsync(Scope, new OwnershipClaim("0", "b", 2), CancellationToken.None));
    }

    [Fact]
    public async Task RacingClaims_FromSeparateStores_ExactlyOneWinsEachPartition()
    {
        // Each racer has its own store instance and so its own lock-file handle: the exclusive lock conflicts between
        // handles exactly as between processes. 8 racers per partition, 16 partitions, all released at once.
        const int Racers = 8;
        var partitions = Enumerable.Range(0, 16).Select(i => i.ToString(System.Globalization.CultureInfo.InvariantCulture)).ToArray();
        var stores = Enumerable.Range(0, Racers).Select(_ => new FileOwnershipStore(_dir.Path, TimeProvider.System, fsync: false)).ToArray();
        var start = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var races = partitions.SelectMany(p => stores.Select(async (store, racer) =>
        {
            await start.Task;
            return (Partition: p, Racer: "racer-" + racer, Won: await store.TryClaimAsync(Scope, new OwnershipClaim(p, "racer-" + racer, 0), CancellationToken.None) is not null);
        })).ToList();
        start.SetResult();
        var results = await Task.WhenAll(races).WaitAsync(TimeSpan.FromMinutes(2));

        var records = (await stores[0].ListAsync(Scope, CancellationToken.None)).ToDictionary(r => r.PartitionId);
        foreach (var partition in partitions)
        {
            var winner = Assert.Single(results, r => r.Partition == partition && r.Won);
            Assert.Equal(winner.Racer, records[partition].OwnerId);
            Assert.Equal(1, records[partition].Version);
        }
    }
}
