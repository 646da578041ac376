using Microsoft.Azure.Cosmos;
using SensorPipeline.Functions.Invocation;

namespace SensorPipeline.Functions.Tests;

/// <summary>Which failures may be an event's (and so count towards isolating it): never the store's.</summary>
[Trait("Category", "Fast")]
public sealed class IsolationCandidateTests
{
    [Theory]
    [InlineData(HttpStatusCode.Forbidden)]
    [InlineData(HttpStatusCode.Unauthorized)]
    [InlineData(HttpStatusCode.NotFound)]
    [InlineData(HttpStatusCode.BadRequest)]
    public void IsIsolationCandidate_StoreExceptionThrownNotReturned_IsTheStoresNotTheEvents(HttpStatusCode status)
    {
        // A refusal about one document comes back as an outcome the canary judged; a CosmosException that escapes the
        // writers (a failed token fetch, a container gone) is the store's, and must never bisect a batch into dead letters.
        var thrown = new CosmosException("refused", status, 0, "activity", 0);

        Assert.False(PoisonIsolation.IsIsolationCandidate(thrown, CancellationToken.None));
        Assert.False(PoisonIsolation.IsIsolationCandidate(new AggregateException(thrown), CancellationToken.None));
    }

    [Fact]
    public void IsIsolationCandidate_ExceptionFromTheEventsProcessing_IsACandidate() =>
        Assert.True(PoisonIsolation.IsIsolationCandidate(new FormatException("bad event"), CancellationToken.None));
}
