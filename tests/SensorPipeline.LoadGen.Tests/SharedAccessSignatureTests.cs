using SensorPipeline.LoadGen.Sending;

namespace SensorPipeline.LoadGen.Tests;

public class SharedAccessSignatureTests
{
    // Known vectors computed independently (Python: urllib.parse.quote(uri, safe=''), hmac/sha256, base64).
    [Theory]
    [InlineData("http://127.0.0.1:5000/ingestion", "RootManageSharedAccessKey", "SAS_KEY_VALUE",
        "SharedAccessSignature sr=http%3A%2F%2F127.0.0.1%3A5000%2Fingestion&sig=%2BJfJvWICL12ebFsMToM0cj2p5qTncbehAf%2BBKZv11Rw%3D&se=1893456000&skn=RootManageSharedAccessKey")]
    [InlineData("https://myns.servicebus.windows.net/my hub", "send-only", "k3y+/=",
        "SharedAccessSignature sr=https%3A%2F%2Fmyns.servicebus.windows.net%2Fmy%20hub&sig=QNj817Yo473BwuB4lm0o9pumdSk5kjF0%2F8xRNmI0fGs%3D&se=1893456000&skn=send-only")]
    public void Create_MatchesKnownVector(string uri, string keyName, string key, string expected)
    {
        var token = SharedAccessSignature.Create(uri, keyName, key, DateTimeOffset.FromUnixTimeSeconds(1893456000));

        Assert.Equal(expected, token);
    }

    [Fact]
    public async Task SasAuthorization_RenewsBeforeExpiry()
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
