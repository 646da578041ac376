using System.Net;
using System.Text.Json;
using SensorPipeline.Core.Splitting;
using SensorPipeline.Protos;

namespace SensorPipeline.Functions.Tests.Infrastructure;

/// <summary>One invocation's answer: status, the parsed body, and the splitter's outputs as the host would send them.</summary>
internal sealed record InvocationAnswer(HttpStatusCode Status, JsonElement Body)
{
    /// <summary>
    /// The events the host sends for an output: the handler answers a JSON array of strings, and the host sends one
    /// event per element holding the UTF-8 of its text. Null when the output is absent.
    /// </summary>
    public IReadOnlyList<byte[]>? Events(string binding) =>
        Body.TryGetProperty("Outputs", out var outputs) && outputs.TryGetProperty(binding, out var value)
            ? value.ValueKind == JsonValueKind.Array
                ? [.. value.EnumerateArray().Select(e => System.Text.Encoding.UTF8.GetBytes(e.GetString()!))]
                : throw new InvalidOperationException($"Outputs.{binding} is {value.ValueKind}, expected an array of text envelopes")
            : null;

    /// <summary>The one event of an output that must hold exactly one; null when the output is absent.</summary>
    public byte[]? Output(string binding) => Events(binding) is { } events ? Assert.Single(events) : null;

    /// <summary>The output's events decoded as forward envelopes (each checked to be under the 1 MB event limit).</summary>
    public IReadOnlyList<ForwardEnvelope> Envelopes(string binding) => [.. (Events(binding) ?? []).Select(body =>
    {
        Assert.InRange(body.Length, 1, EnvelopeBudget.MaxEventTextBytes);
        var bytes = new byte[EnvelopeText.MaxDecodedLength(body)];
        Assert.True(EnvelopeText.TryDecode(body, bytes, out var written), "not a text envelope");
        return ForwardEnvelope.Parser.ParseFrom(bytes, 0, written);
    })];

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

    /// <summary>Splits <paramref name="ingestion"/> and returns the weather envelope as one weather-hub event.</summary>
    public static async Task<HubEvent> WeatherEnvelopeAsync(IHandlerUnderTest handler, params HubEvent[] ingestion)
    {
        var split = await SplitAsync(handler, ingestion);
        Assert.Equal(HttpStatusCode.OK, split.Status);
        var envelope = split.Output("weatherOut") ?? throw new InvalidOperationException("no weather output: " + split.Body);
        return new HubEvent(envelope, NextSequence(), DateTimeOffset.UtcNow);
    }

    /// <summary>One ingestion event holding <paramref name="body"/>, enqueued <paramref name="age"/> ago.</summary>
    public static HubEvent Ingestion(byte[] body, TimeSpan age = default) => new(body, NextSequence(), DateTimeOffset.UtcNow - age);
}
