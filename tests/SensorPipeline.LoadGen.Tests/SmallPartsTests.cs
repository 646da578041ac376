using SensorPipeline.LoadGen.Cli;
using SensorPipeline.LoadGen.Sending;
using SensorPipeline.LoadGen.Verify;

namespace SensorPipeline.LoadGen.Tests;

public class SmallPartsTests
{
    [Theory]
    [InlineData("500ms", 500)]
    [InlineData("30s", 30_000)]
    [InlineData("1.5s", 1_500)]
    [InlineData("5m", 300_000)]
    [InlineData("1h", 3_600_000)]
    [InlineData("00:05:00", 300_000)]
    public void DurationParser_Accepts(string text, double milliseconds)
    {
        Assert.True(DurationParser.TryParse(text, out var value));
        Assert.Equal(TimeSpan.FromMilliseconds(milliseconds), value);
    }

    [Theory]
    [InlineData("")]
    [InlineData("soon")]
    [InlineData("-5s")]
    [InlineData("5x")]
    public void DurationParser_Rejects(string text) => Assert.False(DurationParser.TryParse(text, out _));

    [Theory]
    [InlineData("-10m", -600_000)]
    [InlineData("+2m", 120_000)]
    [InlineData("30s", 30_000)]
    public void DurationParser_SignedAcceptsAClockBehindOrAhead(string text, double milliseconds)
    {
        Assert.True(DurationParser.TryParseSigned(text, out var value));
        Assert.Equal(TimeSpan.FromMilliseconds(milliseconds), value);
    }

    [Theory]
    [InlineData("--5s")]
    [InlineData("-")]
    [InlineData("-soon")]
    public void DurationParser_SignedRejects(string text) => Assert.False(DurationParser.TryParseSigned(text, out _));

    [Fact]
    public void LatencyHistogram_PercentilesWithinFivePercent()
    {
        var histogram = new LatencyHistogram();
        for (var ms = 1; ms <= 1000; ms++)
        {
            histogram.Record(TimeSpan.FromMilliseconds(ms));
        }

        Assert.Equal(1000, histogram.Count);
        Assert.InRange(histogram.Percentile(50).TotalMilliseconds, 500, 525);
        Assert.InRange(histogram.Percentile(99).TotalMilliseconds, 990, 1000);
        Assert.Equal(TimeSpan.FromMilliseconds(1000), histogram.Percentile(100));
        Assert.Equal(TimeSpan.FromMilliseconds(1000), histogram.Max);
    }

    [Fact]
    public void LatencyHistogram_Empty_Zero() => Assert.Equal(TimeSpan.Zero, new LatencyHistogram().Percentile(99));

    [Fact]
    public async Task LatencyHistogram_ConcurrentRecords_NoneLost()
    {
        var histogram = new LatencyHistogram();

        await Parallel.ForEachAsync(Enumerable.Range(0, 8), (_, _) =>
        {
            for (var i = 0; i < 10_000; i++)
            {
                histogram.Record(TimeSpan.FromMicroseconds(i));
            }

            return ValueTask.CompletedTask;
        });

        Assert.Equal(80_000, histogram.Count);
    }

    [Fact]
    public void VerifyOptionsValidator_NamesEachBadOption()
    {
        var result = new VerifyOptionsValidator().Validate(null, new VerifyOptions
        {
            Ledger = "/no/such/ledger.json",
            CosmosEndpoint = new Uri("ftp://x/"),
            CosmosKey = "not base64!",
            ReadingsContainer = "",
            Concurrency = 0,
        });

        Assert.True(result.Failed);
        foreach (var option in new[] { "--ledger", "--cosmos-endpoint", "--cosmos-key", "--readings-container", "--concurrency" })
        {
            Assert.Contains(option, result.FailureMessage, StringComparison.Ordinal);
        }
    }

    [Fact]
    public void VerifyOptions_LoopbackOnlyForLoopbackEndpoints()
    {
        Assert.True(new VerifyOptions { CosmosEndpoint = new Uri("https://127.0.0.1:8081/") }.IsLoopback);
        Assert.True(new VerifyOptions { CosmosEndpoint = new Uri("https://localhost:8081/") }.IsLoopback);
        Assert.False(new VerifyOptions { CosmosEndpoint = new Uri("https://acct.documents.azure.com:443/") }.IsLoopback);
    }
}
