namespace SensorPipeline.Functions.Tests;

/// <summary>The splitter's answers to the host that reach neither the store nor the hubs nor Kestrel's limits, on the
/// handler in-process (<see cref="InProcessHandler"/>).</summary>
[Trait("Category", "Fast")]
public sealed class SplitterContractTests(InProcessHandler handler) : IClassFixture<InProcessHandler>
{
    [Fact]
    public async Task Splitter_MalformedRequest_Answers400()
    {
        var answer = await PipelineDriver.InvokeAsync(handler, "Splitter", """{"Data":{},"Metadata":{}}"""u8.ToArray());

        Assert.Equal(HttpStatusCode.BadRequest, answer.Status);
        Assert.Contains("Data.events", answer.LogText, StringComparison.Ordinal);
    }
}
