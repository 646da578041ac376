using System.Net;
using Microsoft.Extensions.Logging.Abstractions;
using SensorPipeline.Functions.Options;
using SensorPipeline.Functions.Storage;
using SensorPipeline.Functions.Telemetry;
using MsOptions = Microsoft.Extensions.Options.Options;

namespace SensorPipeline.Functions.Tests;

/// <summary>The store-answer classification and the back-off arithmetic (pure units).</summary>
[Trait("Category", "Fast")]
public sealed class StoreRetryTests
{
    [Theory]
    [InlineData(429, true, false)]
    [InlineData(408, true, false)]
    [InlineData(449, true, false)]
    [InlineData(503, true, false)]
    [InlineData(410, true, false)]
    [InlineData(500, true, false)]
    [InlineData(400, false, true)]
    [InlineData(413, false, true)]
    [InlineData(401, false, false)]
    [InlineData(403, false, false)]
    [InlineData(404, false, false)]
    [InlineData(409, false, false)]
    [InlineData(412, false, false)]
    public void Classify_Status_TransientOrPermanentRejection(int status, bool transient, bool rejection)
    {
        Assert.Equal(transient, StoreStatus.IsTransient((HttpStatusCode)status));
        Assert.Equal(rejection, StoreStatus.IsPermanentRejection((HttpStatusCode)status));
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
