using System.Buffers;
using System.Collections.Concurrent;
using System.Globalization;
using System.Text.Json;
using SensorPipeline.FunctionsHost.Config;

namespace SensorPipeline.FunctionsHost.Invocation;

/// <summary>Sends one invocation to the custom handler and reads its answer, as DefaultHttpWorkerService does:
/// <c>POST http://127.0.0.1:{port}/{FunctionName}</c> with the host headers; EnsureSuccessStatusCode; the body read as
/// an HttpScriptInvocationResult by the JSON media type formatter (application/json or text/json only).</summary>
internal sealed class HandlerClient(HttpClient http, string hostVersion)
{
    private static readonly JsonDocumentOptions ResponseOptions = new() { AllowTrailingCommas = true, CommentHandling = JsonCommentHandling.Skip };
    private readonly string _userAgent = "Azure-Functions-Host/" + hostVersion;
    private readonly ConcurrentDictionary<(int Port, string Function), Uri> _uris = new();

    /// <summary>Posts <paramref name="body"/> (already written) and returns the converted outputs.</summary>
    /// <exception cref="HttpRequestException">Connection failure or a non-success status.</exception>
    /// <exception cref="InvocationFailedException">The response is not a JSON invocation result.</exception>
    /// <exception cref="OperationCanceledException">The function timeout or shutdown.</exception>
    public async Task<InvocationResult> InvokeAsync(int port, FunctionDefinition function, Guid invocationId, ArrayBufferWriter<byte> body, CancellationToken cancellationToken)
    {
        var uri = _uris.GetOrAdd((port, function.Name), static key => new Uri($"http://127.0.0.1:{key.Port.ToString(CultureInfo.InvariantCulture)}/{key.Function}"));
        using var request = new HttpRequestMessage(HttpMethod.Post, uri)
        {
            Content = new InvocationContent(body),
        };

        // The values are well-formed by construction: skip the header parsers on the hot path.
        request.Headers.TryAddWithoutValidation("X-Azure-Functions-HostVersion", hostVersion);
        request.Headers.TryAddWithoutValidation("X-Azure-Functions-InvocationId", invocationId.ToString());
        request.Headers.TryAddWithoutValidation("User-Agent", _userAgent);

        using var response = await http.SendAsync(request, HttpCompletionOption.ResponseContentRead, cancellationToken);
        response.EnsureSuccessStatusCode();

        var mediaType = response.Content.Headers.ContentType?.MediaType;
        if (!string.Equals(mediaType, "application/json", StringComparison.OrdinalIgnoreCase)
            && !string.Equals(mediaType, "text/json", StringComparison.OrdinalIgnoreCase))
        {
            throw new InvocationFailedException($"Invalid HttpResponseMessage: no JSON formatter reads content with media type '{mediaType ?? "application/octet-stream"}' (send application/json)");
        }

        var content = await response.Content.ReadAsByteArrayAsync(cancellationToken);
        if (content.AsSpan().Trim(" \t\r\n"u8).IsEmpty)
        {
            // The host deserializes an empty body to null and never completes the invocation: it hangs until the
            // function timeout. Do the same, so a handler that forgets its body fails here as it would in Azure.
            await Task.Delay(Timeout.InfiniteTimeSpan, cancellationToken);
        }

        return Read(content, function);
    }

    internal static InvocationResult Read(ReadOnlyMemory<byte> content, FunctionDefinition function)
    {
        JsonDocument document;
        try
        {
            document = JsonDocument.Parse(content, ResponseOptions);
        }
        catch (JsonException ex)
        {
            throw new InvocationFailedException($"Invalid HttpResponseMessage: the body is not JSON ({ex.Message})", ex);
        }

        using (document)
        {
            var root = document.RootElement;
            if (root.ValueKind != JsonValueKind.Object)
            {
                throw new InvocationFailedException($"Invalid HttpResponseMessage: expected a JSON object with Outputs, Logs, ReturnValue; found {root.ValueKind}");
            }

            // Newtonsoft matches the result's property names case-insensitively; the Outputs dictionary's keys are
            // matched to binding names case-sensitively.
            JsonFile.TryGet(root, "Outputs", out var outputs);
            JsonFile.TryGet(root, "ReturnValue", out var returnValue);
            var converted = new List<(OutputBinding, List<ReadOnlyMemory<byte>>)>(function.Outputs.Count);
            foreach (var binding in function.Outputs)
            {
                JsonElement value = default;
                var found = binding.Name == "$return"
                    ? returnValue.ValueKind is not JsonValueKind.Undefined and not JsonValueKind.Null && (value = returnValue).ValueKind != JsonValueKind.Undefined
                    : outputs.ValueKind == JsonValueKind.Object && outputs.TryGetProperty(binding.Name, out value);
                if (!found || value.ValueKind == JsonValueKind.Null)
                {
                    continue;
                }

                var events = new List<ReadOnlyMemory<byte>>();
                OutputConverter.Convert(value, binding.IsBinary, events);
                converted.Add((binding, events));
            }

            var logs = new List<string>();
            if (JsonFile.TryGet(root, "Logs", out var logArray) && logArray.ValueKind == JsonValueKind.Array)
            {
                foreach (var log in logArray.EnumerateArray())
                {
                    logs.Add(log.ValueKind == JsonValueKind.String ? log.GetString()! : log.GetRawText());
                }
            }

            return new InvocationResult(converted, logs);
        }
    }
}
