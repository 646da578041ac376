using System.Text;

namespace SensorPipeline.FunctionsHost.Tests;

/// <summary>Outputs become events in the output hub as the Functions host converts them — through real devhost.</summary>
public sealed class OutputBindingTests : IAsyncLifetime
{
    private readonly TestApp _app = new();

    public async Task InitializeAsync() => Assert.Null(await _app.StartAsync());

    public async Task DisposeAsync() => await _app.DisposeAsync();

    private async Task<List<byte[]>> OutputEventsAsync()
    {
        var all = new List<JsonElement>();
        all.AddRange(await _app.PeekAsync("output", "0"));
        all.AddRange(await _app.PeekAsync("output", "1"));
        return all.Select(e => Convert.FromBase64String(e.GetProperty("bodyBase64").GetString()!)).ToList();
    }

    [Fact]
    public async Task Outputs_ArrayBase64AndBinaryBinding_BecomeEventsAsTheHostConvertsThem()
    {
        // One invocation: an array on "out" (one UTF-8 event per element, objects as indented JSON, true as "True",
        // null as an empty event), and a base64 string on the dataType-binary "outBinary" (NOT decoded: its text).
        _app.SetScript("""{"Fn": {"mode": "ok", "outputs": {"out": ["a", {"k": 1}, 5, true, null], "outBinary": "AAEC"}}}""");
        await _app.SendAsync("input", "0", "x");
        await _app.WaitUntilAsync(async () => (await OutputEventsAsync()).Count == 6, "six output events");
        var texts = (await OutputEventsAsync()).Select(b => Encoding.UTF8.GetString(b)).Order(StringComparer.Ordinal).ToArray();
        Assert.Equal(new[] { "", "5", "AAEC", "True", "a", "{\n  \"k\": 1\n}" }.Order(StringComparer.Ordinal), texts);
    }

    [Fact]
    public async Task Outputs_Base64StringOnNonBinaryBinding_IsOneDecodedBinaryEvent()
    {
        _app.SetScript("""{"Fn": {"mode": "ok", "outputs": {"out": "AAEC/w=="}}}""");
        await _app.SendAsync("input", "0", "x");
        await _app.WaitUntilAsync(async () => (await OutputEventsAsync()).Count == 1, "one output event");
        Assert.Equal(new byte[] { 0, 1, 2, 255 }, (await OutputEventsAsync())[0]);
    }

    [Fact]
    public async Task Outputs_StringThatLooksLikeJsonArray_IsSplitIntoElements()
    {
        _app.SetScript("""{"Fn": {"mode": "ok", "outputs": {"out": " [\"p\", \"q\"] "}}}""");
        await _app.SendAsync("input", "0", "x");
        await _app.WaitUntilAsync(async () => (await OutputEventsAsync()).Count == 2, "two output events");
        Assert.Equal(["p", "q"], (await OutputEventsAsync()).Select(b => Encoding.UTF8.GetString(b)).Order(StringComparer.Ordinal));
    }

    [Fact]
    public async Task Outputs_FailedInvocation_SendNothing()
    {
        _app.SetScript("""{"Fn": {"mode": "fail", "status": 500, "outputs": {"out": ["lost"]}}}""");
        await _app.SendAsync("input", "0", "x");
        await _app.WaitUntilAsync(async () => await _app.CheckpointAsync("0") == 0, "the failed batch checkpointed");
        Assert.Empty(await OutputEventsAsync());
    }

    [Fact]
    public async Task Logs_ReturnedByTheHandler_ReachTheConsole()
    {
        _app.SetScript("""{"Fn": {"mode": "ok", "logs": ["hello from the handler"]}}""");
        await _app.SendAsync("input", "0", "y");
        await _app.WaitUntilAsync(() => Task.FromResult(_app.Output.Contains("[Fn] hello from the handler", StringComparison.Ordinal)), "the handler's Logs on the console");
    }

    [Fact]
    public async Task Response_NotJsonContentType_FailsTheInvocation()
    {
        _app.SetScript("""{"Fn": {"mode": "text"}}""");
        await _app.SendAsync("input", "0", "x");
        await _app.WaitUntilAsync(async () => await _app.CheckpointAsync("0") == 0, "the failed batch checkpointed");
        var fn = (await _app.StatusAsync()).GetProperty("functions")[0];
        Assert.Equal(1, fn.GetProperty("invocationsFailed").GetInt64());
        Assert.Equal(0, fn.GetProperty("invocationsSucceeded").GetInt64());
    }
}
