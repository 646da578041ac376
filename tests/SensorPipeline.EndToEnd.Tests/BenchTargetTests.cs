namespace SensorPipeline.EndToEnd.Tests;

/// <summary>The verdicts the benches print beside their figures (pure: no stack started): <c>bench backlog</c>'s catch-up
/// against the ceiling, its handler peak, <c>bench e2e</c>'s latency at 75 % of the ceiling.</summary>
[Trait("Category", "Fast")]
public sealed class BenchTargetTests
{
    [Theory]
    [InlineData(16_800, 21_000, TargetVerdict.Met)] // exactly 0.8×: the bound itself meets it
    [InlineData(25_000, 21_000, TargetVerdict.Met)]
    [InlineData(16_799, 21_000, TargetVerdict.Missed)]
    [InlineData(1_010, 21_000, TargetVerdict.Missed)]
    public void Judge_CatchUpOverCeiling_MetFromEightTenthsUp(double catchUp, double ceiling, TargetVerdict expected)
    {
        var target = BenchTarget.NoLessThan(0.8);

        Assert.Equal(expected, target.Judge(BenchTarget.Ratio(catchUp, ceiling)));
    }

    [Theory]
    [InlineData(0)]
    [InlineData(-5)]
    [InlineData(double.NaN)]
    public void Ratio_CeilingMeasuredNothing_NullAndNotMeasured(double ceiling)
    {
        var ratio = BenchTarget.Ratio(20_000, ceiling);

        Assert.Null(ratio);
        Assert.Equal(TargetVerdict.NotMeasured, BenchTarget.NoLessThan(0.8).Judge(ratio));
    }

    [Theory]
    [InlineData(279, TargetVerdict.Met)]
    [InlineData(300, TargetVerdict.Met)]
    [InlineData(301, TargetVerdict.Missed)]
    [InlineData(double.PositiveInfinity, TargetVerdict.NotMeasured)]
    public void Judge_AtMost_MetUpToTheBoundInclusive(double measured, TargetVerdict expected)
    {
        Assert.Equal(expected, BenchTarget.AtMost(300).Judge(measured));
    }

    [Fact]
    public void Judge_NoFigure_NotMeasuredEitherWay()
    {
        Assert.Equal(TargetVerdict.NotMeasured, BenchTarget.AtMost(1_000).Judge(null));
        Assert.Equal(TargetVerdict.NotMeasured, BenchTarget.NoLessThan(0.8).Judge(null));
    }

    [Fact]
    public void Describe_EitherDirection_BoundWithItsSignAndUnit()
    {
        Assert.Equal("≥ 0.80×", BenchTarget.NoLessThan(0.8).Describe("F2", "×"));
        Assert.Equal("≤ 1,024 MB", BenchTarget.AtMost(1024).Describe("N0", " MB"));
    }

    [Fact]
    public void Text_EachVerdict_TheWordTheTablesPrint()
    {
        Assert.Equal(["met", "**missed**", "not measured"], new[] { TargetVerdict.Met, TargetVerdict.Missed, TargetVerdict.NotMeasured }.Select(v => v.Text()));
    }
}
