using Google.Protobuf;
using SensorPipeline.Redrive;

namespace SensorPipeline.LoadGen.Tests;

/// <summary>Where a re-driven dead letter goes, from what it records (pure).</summary>
[Trait("Category", "Fast")]
public sealed class DeadLetterRouteTests
{
    private static readonly byte[] Reading = new Reading { DeviceId = "d1", Sequence = 4, Kind = SensorKind.Weather }.ToByteArray();

    [Fact]
    public void WholeEvents_GoBackToTheHubTheirStageReads_Unchanged()
    {
        byte[] body = [1, 2, 3];
        Assert.Equal((RedriveHub?)RedriveHub.Ingestion, DeadLetterRoute.Plan("splitter", null, false, body).Hub);
        var weather = DeadLetterRoute.Plan("weather-processor", null, false, body);
        Assert.Equal(RedriveHub.OfKind("weather"), weather.Hub);
        Assert.Equal(body, weather.Body.ToArray());
        Assert.Equal((RedriveHub?)RedriveHub.OfKind("seismic"), DeadLetterRoute.Plan("seismic-processor", null, false, body).Hub);
    }

    [Fact]
    public void Plan_OneReadingOfAnEvent_ToIngestionAsABatchOfItsExactBytes()
    {
        foreach (var stage in new[] { "splitter", "seismic-processor" })
        {
            var plan = DeadLetterRoute.Plan(stage, 3, false, Reading);
            Assert.Equal(RedriveHub.Ingestion, plan.Hub);
            var batch = ReadingBatch.Parser.ParseFrom(plan.Body.ToArray());
            Assert.Equal(Reading, Assert.Single(batch.Readings).ToByteArray());
        }
    }

    [Fact]
    public void Plan_StoreRefusal_ToIngestionAsABatchOfItsReadingsExactBytes()
    {
        var plan = DeadLetterRoute.Plan("weather-processor-store", 1, false, Reading);

        Assert.Equal(RedriveHub.Ingestion, plan.Hub);
        Assert.Equal(Reading, Assert.Single(ReadingBatch.Parser.ParseFrom(plan.Body.ToArray()).Readings).ToByteArray());
    }

    [Fact]
    public void Plan_ReducedOrUnknownStage_SkippedWithTheReason()
    {
        Assert.Contains("reduced", DeadLetterRoute.Plan("splitter", null, true, Reading).Skip, StringComparison.Ordinal);
        Assert.Contains("unknown stage 'other'", DeadLetterRoute.Plan("other", null, false, Reading).Skip, StringComparison.Ordinal);
    }
}
