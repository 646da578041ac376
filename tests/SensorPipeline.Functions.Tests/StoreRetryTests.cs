using Microsoft.Extensions.Logging.Abstractions;
using SensorPipeline.Functions.Options;
using SensorPipeline.Functions.Storage;
using SensorPipeline.Functions.Telemetry;
using MsOptions = Microsoft.Extensions.Options.Options;

namespace SensorPipeline.Functions.Tests;

/// <summary>The store-answer classification (a refusal's status never decides whose fault it is) and the back-off arithmetic (pure units).</summary>
[Trait("Category", "Fast")]
public sealed class StoreRetryTests
{
    [Theory]
    [InlineData(429, 0, true)]
    [InlineData(408, 0, true)]
    [InlineData(449, 0, true)]
    [InlineData(503, 0, true)]
    [InlineData(410, 0, true)]
    [InlineData(500, 0, true)]
    [InlineData(403, 3, true)]
    [InlineData(404, 1002, true)]
    [InlineData(404, 1013, true)]
    [InlineData(400, 0, false)]
    [InlineData(400, 1001, false)]
    [InlineData(413, 0, false)]
    [InlineData(401, 0, false)]
    [InlineData(403, 0, false)]
    [InlineData(403, 1014, false)]
    [InlineData(404, 1003, false)]
    public void FaultOf_StatusAndSubStatus_TransientOrARefusalForTheCanaryToJudge(int status, int subStatus, bool transient)
    {
        Assert.Equal(transient ? StoreFault.Transient : StoreFault.Refused, StoreStatus.FaultOf((HttpStatusCode)status, subStatus));
    }

    [Theory]
    [InlineData(0, null, 100)]
    [InlineData(1, null, 200)]
    [InlineData(3, null, 800)]
    [InlineData(10, null, 2000)]
    [InlineData(0, 700, 700)]
    [InlineData(2, 100, 400)]
    [InlineData(0, 60_000, 2000)]
    public void Backoff_AttemptAndRetryAfter_DoublesHonoursRetryAfterAndCaps(int attempt, int? retryAfterMs, int expectedMs)
    {
        var retry = new StoreRetry(
            MsOptions.Create(new PipelineOptions { TransientRetryBaseDelay = TimeSpan.FromMilliseconds(100), TransientRetryMaxDelay = TimeSpan.FromSeconds(2) }),
            MsOptions.Create(new CosmosOptions()),
            TimeProvider.System,
            new PipelineMetrics(null, TimeProvider.System),
            NullLogger<StoreRetry>.Instance);

        var delay = retry.Backoff(attempt, retryAfterMs is { } ms ? TimeSpan.FromMilliseconds(ms) : null);

        Assert.Equal(TimeSpan.FromMilliseconds(expectedMs), delay);
    }
}
