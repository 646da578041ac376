using System.Globalization;
using Microsoft.Extensions.Time.Testing;
using SensorPipeline.FunctionsHost.Ownership;

namespace SensorPipeline.FunctionsHost.Tests;

/// <summary>Several owners balancing through the real file store, cycle by cycle on a fake clock (10 s interval,
/// 30 s expiration), as instances of one function would.</summary>
[Trait("Category", "Fast")]
public sealed class OwnershipBalancingTests : IDisposable
{
    private static readonly TimeSpan Interval = TimeSpan.FromSeconds(10);
    private static readonly TimeSpan Expiration = TimeSpan.FromSeconds(30);
    private static readonly OwnershipScope Scope = new("weather", "$Default");
    private readonly TempDirectory _dir = new("fh-own-");
    private readonly FakeTimeProvider _time = new(new DateTimeOffset(2026, 1, 1, 0, 0, 0, TimeSpan.Zero));

    public void Dispose() => _dir.Dispose();

    private static string[] Partitions(int count) => Enumerable.Range(0, count).Select(i => i.ToString(CultureInfo.InvariantCulture)).ToArray();

    private List<PartitionOwner> Owners(int count, int seed = 1)
    {
        var store = new FileOwnershipStore(_dir.Path, _time, fsync: false);
        return Enumerable.Range(0, count)
            .Select(i => new PartitionOwner(store, Scope, "instance-" + i, new PartitionLoadBalancer(Expiration, _time, new Random(seed + i))))
            .ToList();
    }

    // One round: every owner runs a cycle, then the clock moves one interval. Returns whether any ownership changed.
    private async Task<bool> RoundAsync(IEnumerable<PartitionOwner> owners, string[] partitions)
    {
        var changed = false;
        foreach (var owner in owners)
        {
            var before = owner.Owned.ToHashSet();
            changed |= !before.SetEquals(await owner.RunCycleAsync(partitions, CancellationToken.None));
        }

        _time.Advance(Interval);
        return changed;
    }

    private static void AssertBalanced(List<PartitionOwner> owners, string[] partitions)
    {
        var all = owners.SelectMany(o => o.Owned).ToList();
        Assert.Equal(partitions.Order(StringComparer.Ordinal), all.Order(StringComparer.Ordinal)); // each exactly once
        var min = partitions.Length / owners.Count;
        Assert.All(owners, o => Assert.InRange(o.Owned.Count, min, min + (partitions.Length % owners.Count == 0 ? 0 : 1)));
    }

    [Theory]
    [InlineData(1, 4)]
    [InlineData(2, 4)]
    [InlineData(3, 4)]
    [InlineData(4, 4)]
    [InlineData(1, 32)]
    [InlineData(2, 32)]
    [InlineData(3, 32)]
    [InlineData(4, 32)]
    public async Task Converges_ToBalanced_AndStaysThere(int ownerCount, int partitionCount)
    {
        var partitions = Partitions(partitionCount);
        var owners = Owners(ownerCount);

        // Each owner makes at most one claim per cycle, so P rounds plus a margin for lost races is enough.
        var rounds = 0;
        while (await RoundAsync(owners, partitions))
        {
            Assert.True(++rounds < partitionCount * 3, $"no steady state after {rounds} rounds");
        }

        AssertBalanced(owners, partitions);
        for (var i = 0; i < 5; i++)
        {
            Assert.False(await RoundAsync(owners, partitions), "a balanced distribution moved");
        }
    }

    [Fact]
    public async Task Round_LateJoiners_StealTheirShare()
    {
        var partitions = Partitions(32);
        var owners = Owners(4);
        while (await RoundAsync(owners.Take(2), partitions))
        {
        }

        Assert.All(owners.Take(2), o => Assert.Equal(16, o.Owned.Count));
        var rounds = 0;
        while (await RoundAsync(owners, partitions))
        {
            Assert.True(++rounds < 100, "late joiners never got their share");
        }

        AssertBalanced(owners, partitions);
    }

    [Fact]
    public async Task OwnerThatStopsRenewing_LosesItsPartitions_OnlyAfterExpiry()
    {
        var partitions = Partitions(4);
        var owners = Owners(2);
        while (await RoundAsync(owners, partitions))
        {
        }

        var survivor = owners[0];
        var orphaned = owners[1].Owned.ToHashSet();
        Assert.Equal(2, orphaned.Count);

        // owners[1] stops (killed: no relinquish). Its records were last renewed one interval before now; while they
        // are younger than the expiration the survivor is balanced (2 of 4 with two active owners) and takes nothing.
        await RoundAsync([survivor], partitions); // at 10 s
        await RoundAsync([survivor], partitions); // at 20 s
        Assert.Equal(2, survivor.Owned.Count);

        // From 30 s the records are expired: the survivor, now alone, claims one per cycle.
        await RoundAsync([survivor], partitions);
        Assert.Equal(3, survivor.Owned.Count);
        await RoundAsync([survivor], partitions);
        Assert.Equal(partitions, survivor.Owned.Order(StringComparer.Ordinal));
        Assert.Empty(orphaned.Except(survivor.Owned));
    }

    [Fact]
    public async Task Round_RelinquishedPartitions_ClaimedWithoutWaitingForExpiry()
    {
        var partitions = Partitions(4);
        var owners = Owners(2);
        while (await RoundAsync(owners, partitions))
        {
        }

        await owners[1].RelinquishAsync(CancellationToken.None);
        Assert.Empty(owners[1].Owned);
        await RoundAsync([owners[0]], partitions);
        await RoundAsync([owners[0]], partitions);
        Assert.Equal(4, owners[0].Owned.Count);
    }
}
