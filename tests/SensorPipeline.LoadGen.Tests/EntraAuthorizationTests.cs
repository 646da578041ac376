using Azure.Core;

namespace SensorPipeline.LoadGen.Tests;

[Trait("Category", "Fast")]
public class EntraAuthorizationTests
{
    /// <summary>Hands out numbered tokens valid for an hour from the clock's now, and counts the requests.</summary>
    private sealed class CountingCredential(TimeProvider clock) : TokenCredential
    {
        public int Calls;
        public string[] LastScopes = [];

        public override AccessToken GetToken(TokenRequestContext requestContext, CancellationToken cancellationToken) =>
            throw new NotSupportedException("loadgen must use the async path");

        public override ValueTask<AccessToken> GetTokenAsync(TokenRequestContext requestContext, CancellationToken cancellationToken)
        {
            LastScopes = requestContext.Scopes;
            var n = Interlocked.Increment(ref Calls);
            return ValueTask.FromResult(new AccessToken("token-" + n, clock.GetUtcNow().AddHours(1)));
        }
    }

    [Fact]
    public async Task GetAsync_BearerForTheEventHubsScope_CachedUntilFiveMinutesBeforeExpiry()
    {
        var clock = new ManualClock();
        var credential = new CountingCredential(clock);
        using var source = new EntraAuthorization(credential, clock);

        var first = await source.GetAsync(CancellationToken.None);
        clock.Advance(TimeSpan.FromMinutes(54));
        var cached = await source.GetAsync(CancellationToken.None);
        clock.Advance(TimeSpan.FromMinutes(1)); // 55 min: within 5 min of expiry
        var renewed = await source.GetAsync(CancellationToken.None);

        Assert.Equal("Bearer token-1", first);
        Assert.Equal("Bearer token-1", cached);
        Assert.Equal("Bearer token-2", renewed);
        Assert.Equal(2, credential.Calls);
        Assert.Equal(["https://eventhubs.azure.net/.default"], credential.LastScopes);
    }

    [Fact]
    public async Task GetAsync_ConcurrentCallers_OneTokenRequest()
    {
        var clock = new ManualClock();
        var credential = new CountingCredential(clock);
        using var source = new EntraAuthorization(credential, clock);

        var headers = await Task.WhenAll(Enumerable.Range(0, 32).Select(_ => source.GetAsync(CancellationToken.None).AsTask()));

        Assert.All(headers, h => Assert.Equal("Bearer token-1", h));
        Assert.Equal(1, credential.Calls);
    }
}
