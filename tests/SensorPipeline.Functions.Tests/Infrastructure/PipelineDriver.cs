using System.Text.Json;
using SensorPipeline.Core.Splitting;
using SensorPipeline.Protos;

namespace SensorPipeline.Functions.Tests.Infrastructure;

/// <summary>One invocation's answer: status and the parsed body.</summary>
internal sealed record InvocationAnswer(HttpStatusCode Status, JsonElement Body)
{
    public string LogText => Body.TryGetProperty("Logs", out var logs) ? string.Join("\n", logs.EnumerateArray().Select(l => l.GetString())) : "";
}

/// <summary>Invokes the handler's functions the way the host does, with the hub and consumer group of docs/conventions.md.</summary>
internal static class PipelineDriver
{
    private static long _nextSequence = 1000;

    /// <summary>A fresh sequence number range so dead letter ids of different tests never collide.</summary>
    public static long NextSequence(int count = 1) => Interlocked.Add(ref _nextSequence, count) - count;

    public static Task<InvocationAnswer> SplitAsync(IHandlerUnderTest handler, IReadOnlyList<HubEvent> events, string partitionId = "0") =>
        InvokeAsync(handler, "Splitter", HostRequest.Build("Splitter", "ingestion", "splitter", partitionId, events));

    public static Task<InvocationAnswer> ProcessAsync(IHandlerUnderTest handler, string function, IReadOnlyList<HubEvent> envelopes, string partitionId = "0", int? retryCount = null)
    {
        var (hub, group) = function == "WeatherProcessor" ? ("weather", "weather-processor") : ("seismic", "seismic-processor");
        return InvokeAsync(handler, function, HostRequest.Build(function, hub, group, partitionId, envelopes, retryCount));
    }

    public static async Task<InvocationAnswer> InvokeAsync(IHandlerUnderTest handler, string function, byte[] body)
    {
        using var response = await handler.Http.PostAsync(new Uri("/" + function, UriKind.Relative), HostRequest.Content(body));
        var text = await response.Content.ReadAsByteArrayAsync();
        var json = text.Length == 0 ? default : JsonDocument.Parse(text).RootElement.Clone();
        return new InvocationAnswer(response.StatusCode, json);
    }

    /// <summary>
    /// The weather envelope the splitter makes of <paramref name="ingestion"/> (read from ingestion partition 0), as one
    /// weather-hub event: the splitter's own core, in process, so processor tests need no hub. The splitter function
    /// itself, sending to a hub, is tested in <c>SplitterFunctionTests</c>.
    /// </summary>
    public static HubEvent WeatherEnvelope(params HubEvent[] ingestion) => Envelope(SensorKind.Weather, ingestion);

    /// <summary>The one envelope of <paramref name="kind"/> the splitter makes of <paramref name="ingestion"/>, as a hub event.</summary>
    public static HubEvent Envelope(SensorKind kind, params HubEvent[] ingestion)
    {
        var events = ingestion.Select(e => new InputEvent(e.Body, new Core.Readings.SourcePosition("0", e.SequenceNumber, e.EnqueuedTime.ToUnixTimeMilliseconds()))).ToArray();
        var result = new Splitter().Split(events, DateTimeOffset.UtcNow.ToUnixTimeMilliseconds());
        var envelope = Assert.Single(result.Of(kind).Envelopes);
        return new HubEvent(envelope.ToArray(), NextSequence(), DateTimeOffset.UtcNow);
    }

    /// <summary>One ingestion event holding <paramref name="body"/>, enqueued <paramref name="age"/> ago.</summary>
    public static HubEvent Ingestion(byte[] body, TimeSpan age = default) => new(body, NextSequence(), DateTimeOffset.UtcNow - age);
}
