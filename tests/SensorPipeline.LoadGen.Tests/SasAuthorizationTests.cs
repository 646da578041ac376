namespace SensorPipeline.LoadGen.Tests;

[Trait("Category", "Fast")]
public class SasAuthorizationTests
{
    [Fact]
    public async Task GetAsync_HalfTheLifetimeGone_Renewed()
    {
        var clock = new ManualClock();
        var source = new SasAuthorization("http://127.0.0.1:1/ingestion", "k", "v", clock);

        var first = await source.GetAsync(CancellationToken.None);
        clock.Advance(TimeSpan.FromMinutes(10));
        var cached = await source.GetAsync(CancellationToken.None);
        clock.Advance(SasAuthorization.Lifetime / 2);
        var renewed = await source.GetAsync(CancellationToken.None);

        Assert.Same(first, cached);
        Assert.NotEqual(first, renewed);
        Assert.Contains("&se=" + (ManualClock.Start + TimeSpan.FromMinutes(10) + (SasAuthorization.Lifetime / 2) + SasAuthorization.Lifetime).ToUnixTimeSeconds(), renewed, StringComparison.Ordinal);
    }
}
