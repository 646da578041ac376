using System.Net;
using System.Text.Json;

namespace SensorPipeline.Functions.Tests.Infrastructure;

/// <summary>One invocation's answer: status, the parsed body, and the splitter's outputs decoded from base64.</summary>
internal sealed record InvocationAnswer(HttpStatusCode Status, JsonElement Body)
{
    public byte[]? Output(string binding) =>
        Body.TryGetProperty("Outputs", out var outputs) && outputs.TryGetProperty(binding, out var value) && value.ValueKind == JsonValueKind.String
            ? value.GetBytesFromBase64()
            : null;

    public string LogText => Body.TryGetProperty("Logs", out var logs) ? string.Join("\n", logs.EnumerateArray().Select(l => l.GetString())) : "";
}

/// <summary>Invokes the handler's functions the way the host does, with the hub and consumer group of docs/conventions.md.</summary>
internal static class PipelineDriver
{
    private static long _nextSequence = 1000;

    /// <summary>A fresh sequence number range so dead letter ids of different tests never collide.</summary>
    public static long NextSequence(int count = 1) => Interlocked.Add(ref _nextSequence, count) - count;

    public static Task<InvocationAnswer> SplitAsync(HandlerProcess handler, IReadOnlyList<HubEvent> events, string partitionId = "0") =>
        InvokeAsync(handler, "Splitter", HostRequest.Build("Splitter", "ingestion", "splitter", partitionId, events));

    public static Task<InvocationAnswer> ProcessAsync(HandlerProcess handler, string function, IReadOnlyList<HubEvent> envelopes, string partitionId = "0", int? retryCount = null)
    {
        var (hub, group) = function == "WeatherProcessor" ? ("weather", "weather-processor") : ("seismic", "seismic-processor");
        return InvokeAsync(handler, function, HostRequest.Build(function, hub, group, partitionId, envelopes, retryCount));
    }

    public static async Task<InvocationAnswer> InvokeAsync(HandlerProcess handler, string function, byte[] body)
    {
        using var response = await handler.Http.PostAsync(new Uri("/" + function, UriKind.Relative), HostRequest.Content(body));
        var text = await response.Content.ReadAsByteArrayAsync();
        var json = text.Length == 0 ? default : JsonDocument.Parse(text).RootElement.Clone();
        return new InvocationAnswer(response.StatusCode, json);
    }

    /// <summary>Splits <paramref name="ingestion"/> and returns the weather envelope as one weather-hub event.</summary>
    public static async Task<HubEvent> WeatherEnvelopeAsync(HandlerProcess handler, params HubEvent[] ingestion)
    {
        var split = await SplitAsync(handler, ingestion);
        Assert.Equal(HttpStatusCode.OK, split.Status);
        var envelope = split.Output("weatherOut") ?? throw new InvalidOperationException("no weather output: " + split.Body);
        return new HubEvent(envelope, NextSequence(), DateTimeOffset.UtcNow);
    }

    /// <summary>One ingestion event holding <paramref name="body"/>, enqueued <paramref name="age"/> ago.</summary>
    public static HubEvent Ingestion(byte[] body, TimeSpan age = default) => new(body, NextSequence(), DateTimeOffset.UtcNow - age);
}
