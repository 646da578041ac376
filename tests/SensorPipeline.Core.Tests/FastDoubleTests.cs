using System.Globalization;
using System.Text;
using FsCheck;
using FsCheck.Fluent;
using SensorPipeline.Core.GeoJson;

namespace SensorPipeline.Core.Tests;

public class FastDoubleTests
{
    [Theory]
    [InlineData(12.5, "12.5")]
    [InlineData(-0.01, "-0.01")]
    [InlineData(1013.25, "1013.25")]
    [InlineData(47.606209, "47.606209")]
    [InlineData(270, "270")]
    [InlineData(0.000001, "0.000001")]
    [InlineData(0, "0")]
    public void TryFormat_FewDecimals_ShortestText(double value, string expected)
    {
        Span<byte> text = stackalloc byte[32];
        Assert.True(FastDouble.TryFormat(value, text, out var length));
        Assert.Equal(expected, Encoding.ASCII.GetString(text[..length]));
    }

    [Theory]
    [InlineData(0.1234567)]
    [InlineData(1e300)]
    [InlineData(Math.PI)]
    public void TryFormat_ManyDecimalsOrHuge_FallsBack(double value)
    {
        Span<byte> text = stackalloc byte[32];
        Assert.False(FastDouble.TryFormat(value, text, out _));
    }

    [Fact]
    public void TryFormat_WhenItSucceeds_ParsesBackExactly()
    {
        var gen = Gen.OneOf(
            ArbMap.Default.GeneratorFor<NormalFloat>().Select(f => f.Get),
            from i in ArbMap.Default.GeneratorFor<int>()
            from k in Gen.Choose(0, 7)
            select i / Math.Pow(10, k),
            from d in ArbMap.Default.GeneratorFor<NormalFloat>()
            from k in Gen.Choose(0, 6)
            select Math.Round(d.Get % 1e6, k));
        Prop.ForAll(gen.ToArbitrary(), value =>
        {
            Span<byte> text = stackalloc byte[32];
            if (!FastDouble.TryFormat(value, text, out var length))
            {
                return true;
            }

            var parsed = double.Parse(Encoding.ASCII.GetString(text[..length]), CultureInfo.InvariantCulture);
            return parsed.Equals(value) || (value == 0 && parsed == 0);
        }).QuickCheckThrowOnFailure();
    }
}
