using Microsoft.Extensions.Time.Testing;
using SensorPipeline.FunctionsHost.Ownership;

namespace SensorPipeline.FunctionsHost.Tests;

/// <summary>The balancing algorithm on its own (pure: records in, one claim out), against a fake clock.</summary>
[Trait("Category", "Fast")]
public sealed class PartitionLoadBalancerTests
{
    private static readonly TimeSpan Expiration = TimeSpan.FromSeconds(30);
    private readonly FakeTimeProvider _time = new(new DateTimeOffset(2026, 1, 1, 0, 0, 0, TimeSpan.Zero));

    private PartitionLoadBalancer Balancer() => new(Expiration, _time, new Random(7));

    private static string[] Partitions(int count) => Enumerable.Range(0, count).Select(i => i.ToString(System.Globalization.CultureInfo.InvariantCulture)).ToArray();

    // Records for "A:3,B:1" style layouts: owners take consecutive partitions, all renewed now.
    private List<PartitionOwnership> Layout(params (string Owner, int Count)[] owners)
    {
        var records = new List<PartitionOwnership>();
        foreach (var (owner, count) in owners)
        {
            for (var i = 0; i < count; i++)
            {
                records.Add(new PartitionOwnership(records.Count.ToString(System.Globalization.CultureInfo.InvariantCulture), owner, _time.GetUtcNow(), 5));
            }
        }

        return records;
    }

    [Fact]
    public void Unowned_IsClaimedFirst_WithItsVersionOrZero()
    {
        var records = Layout(("A", 2));
        records.Add(new PartitionOwnership("2", "C", _time.GetUtcNow() - Expiration, 9)); // expired: unowned

        var claim = Balancer().FindClaim(records, Partitions(4), "B")!.Value;

        Assert.Contains(claim.PartitionId, new[] { "2", "3" });
        Assert.Equal(claim.PartitionId == "2" ? 9 : 0, claim.ExpectedVersion);
        Assert.Equal("B", claim.OwnerId);
    }

    [Theory]
    [InlineData(2, 2, 4)] // balanced
    [InlineData(3, 2, 5)] // differ by one: max = min + 1 is allowed
    [InlineData(2, 1, 3)]
    public void FindClaim_OwnersDifferByOne_NeverSteals(int a, int b, int partitions)
    {
        var records = Layout(("A", a), ("B", b));
        Assert.Null(Balancer().FindClaim(records, Partitions(partitions), "B"));
        Assert.Null(Balancer().FindClaim(records, Partitions(partitions), "A"));
    }

    [Fact]
    public void FindClaim_BelowMin_StealsFromOwnerAtMax()
    {
        // 4 partitions, 2 owners: min 2, max 3. B (1) is below min, A (3) at max.
        var records = Layout(("A", 3), ("B", 1));
        var claim = Balancer().FindClaim(records, Partitions(4), "B")!.Value;
        Assert.Contains(claim.PartitionId, new[] { "0", "1", "2" });
        Assert.Equal(5, claim.ExpectedVersion);
    }

    [Fact]
    public void FindClaim_AtMin_StealsOnlyFromOwnerAboveMax()
    {
        // 8 partitions, 3 owners: min 2, max 3. A holds 4 > max; C at min with nobody below min steals from A.
        var records = Layout(("A", 4), ("B", 2), ("C", 2));
        var claim = Balancer().FindClaim(records, Partitions(8), "C")!.Value;
        Assert.Contains(claim.PartitionId, new[] { "0", "1", "2", "3" });

        // A holds 3 = max: C at min does not steal.
        Assert.Null(Balancer().FindClaim(Layout(("A", 3), ("B", 3), ("C", 2)), Partitions(8), "C"));
    }

    [Fact]
    public void FindClaim_AtMinWhileAnotherIsBelowMin_Waits()
    {
        // 13 partitions, 3 owners, min 4: B (4) leaves the orphan to C (3), who is below min.
        var records = Layout(("A", 6), ("B", 4), ("C", 3));
        Assert.Null(Balancer().FindClaim(records, Partitions(13), "B"));
        Assert.NotNull(Balancer().FindClaim(records, Partitions(13), "C"));
    }

    [Fact]
    public void FindClaim_ExpiredOwner_NotCountedAsAnOwner()
    {
        // A's records are one tick past the expiration: B alone, min 4, claims them although A "holds" 4.
        var records = Layout(("A", 4));
        _time.Advance(Expiration);
        Assert.Empty(Balancer().ActiveOwnedBy(records, "A"));
        Assert.NotNull(Balancer().FindClaim(records, Partitions(4), "B"));
    }
}
