using Microsoft.Extensions.Options;
using SensorPipeline.Core.Telemetry;
using SensorPipeline.LoadGen.Redrive;
using SensorPipeline.Redrive;
using SensorPipeline.LoadGen.Run;
using SensorPipeline.LoadGen.Verify;

namespace SensorPipeline.LoadGen.Tests;

[Trait("Category", "Fast")]
public class SmallPartsTests
{
    [Fact]
    public void Latency_SendsBelowAndAboveOneMillisecond_MicrosecondsResolvedPipelineBoundsShared()
    {
        var counters = new RunCounters();
        counters.Record(new SendOutcome(SendStatus.Sent, 1, 201, TimeSpan.FromMicroseconds(40), null), 1);
        counters.Record(new SendOutcome(SendStatus.Sent, 1, 201, TimeSpan.FromMicroseconds(400), null), 1);

        // Two sends a decade apart below 1 ms land in different buckets, each read back within one bucket (9.05 %).
        Assert.InRange(counters.Latency.Percentile(0.5).TotalMicroseconds, 40, 40 * 1.0906);
        Assert.Equal(TimeSpan.FromMicroseconds(400), counters.Latency.Percentile(1));
        var layout = RunCounters.SendLatencyBuckets;
        foreach (var ms in new[] { 1.0, 1.5, 37.0, 250.0, 9_000.0 })
        {
            Assert.Equal(LatencyBuckets.UpperBoundMs(LatencyBuckets.Index(ms)), layout.UpperBoundMs(layout.Index(ms)), 9);
        }
    }

    [Fact]
    public void Validate_BadVerifyOptions_NamesEachOne()
    {
        var result = new VerifyOptionsValidator().Validate(null, new VerifyOptions
        {
            Ledger = "/no/such/ledger.json",
            CosmosEndpoint = new Uri("ftp://x/"),
            CosmosKey = "not base64!",
            ReadingsContainer = "",
            Concurrency = 0,
        });

        AssertFailedWith(result, "--ledger", "--cosmos-endpoint", "--cosmos-key", "--readings-container", "--concurrency");
    }

    [Fact]
    public void Validate_BadRedriveOptions_NamesEachOneAsVerifyDoes()
    {
        var result = new RedriveOptionsValidator().Validate(null, new RedriveOptions
        {
            Connection = "Endpoint=sb://127.0.0.1:1;SharedAccessKeyName=k;SharedAccessKey=v",
            Namespace = "ns.servicebus.windows.net",
            CosmosEndpoint = new Uri("ftp://x/"),
            CosmosKey = "not base64!",
            DeadLettersContainer = "",
            Reasons = ["invalid-observed-at"],
            MaxAttempts = 0,
        });

        AssertFailedWith(result, "not both", "--cosmos-endpoint", "--cosmos-key", "--deadletters-container", "--max-attempts");
    }

    [Fact]
    public void IsLoopback_Endpoint_TrueOnlyForLoopback()
    {
        Assert.True(new VerifyOptions { CosmosEndpoint = new Uri("https://127.0.0.1:8081/") }.IsLoopback);
        Assert.True(new VerifyOptions { CosmosEndpoint = new Uri("https://localhost:8081/") }.IsLoopback);
        Assert.False(new VerifyOptions { CosmosEndpoint = new Uri("https://acct.documents.azure.com:443/") }.IsLoopback);
    }

    /// <summary>Checks the validation failed and its message holds each of <paramref name="fragments"/> (an option's
    /// name, or a phrase of a failure that names two).</summary>
    private static void AssertFailedWith(ValidateOptionsResult result, params string[] fragments)
    {
        Assert.True(result.Failed);
        foreach (var fragment in fragments)
        {
            Assert.Contains(fragment, result.FailureMessage, StringComparison.Ordinal);
        }
    }
}
