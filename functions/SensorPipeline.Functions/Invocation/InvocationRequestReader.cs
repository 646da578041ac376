using System.Buffers;
using System.Text.Json;

namespace SensorPipeline.Functions.Invocation;

/// <summary>
/// Parses the Functions host's custom-handler request for an Event Hubs batch as it streams in, with a forward-only
/// <see cref="Utf8JsonReader"/> (no DOM, the body never held whole):
/// <c>{"Data":{"&lt;trigger&gt;":"[\"AQID\",…]"},"Metadata":{"PartitionContext":{…,"PartitionId":"0"},
/// "SequenceNumberArray":"[…]","EnqueuedTimeUtcArray":"[…]",…,"RetryContext":{"RetryCount":1,…}}}</c>.
/// Array-valued data arrive as JSON strings holding JSON text (the host's JsonConvert.SerializeObject fallback);
/// real arrays are accepted too. Enqueued times come without an offset and are UTC.
/// Memory: a read window that grows only to the largest value read whole (the metadata, or one event when the trigger
/// is a real array), the array reader's buffer (the largest event's base64), and the decoded events.
/// </summary>
internal static partial class InvocationRequestReader
{
    private const int InitialWindow = 64 * 1024;

    /// <summary>Reads the host's request; a body over <see cref="RequestBody.MaxBytes"/> for <paramref name="maxEventBatchSize"/> comes back refused (<see cref="InvocationRequest.Refusal"/>).</summary>
    public static Task<InvocationRequest> ReadAsync(Microsoft.AspNetCore.Http.HttpRequest request, string triggerName, int maxEventBatchSize, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(request);
        return ReadAsync(request.Body, triggerName, cancellationToken, maxEventBatchSize);
    }

    /// <summary>
    /// Reads and parses <paramref name="body"/> to its end (or to the request object's end). Past the budget of
    /// <paramref name="maxEventBatchSize"/> events it keeps reading without keeping events, for the metadata behind them.
    /// </summary>
    public static async Task<InvocationRequest> ReadAsync(Stream body, string triggerName, CancellationToken cancellationToken, int? maxEventBatchSize = null)
    {
        ArgumentNullException.ThrowIfNull(body);
        ArgumentNullException.ThrowIfNull(triggerName);
        using var parser = new RequestStreamParser(triggerName);
        var budget = maxEventBatchSize is { } size ? RequestBody.MaxBytes(size) : long.MaxValue;
        var window = ArrayPool<byte>.Shared.Rent(InitialWindow);
        var start = 0;
        var end = 0;
        long total = 0;
        try
        {
            while (true)
            {
                if (end == window.Length)
                {
                    window = MakeRoom(window, ref start, ref end);
                }

                var read = await body.ReadAsync(window.AsMemory(end), cancellationToken);
                end += read;
                total += read;
                if (total > budget)
                {
                    parser.DropEvents();
                }

                start += Advance(parser, window.AsSpan(start, end - start), isFinalBlock: read == 0);
                if (parser.IsDone)
                {
                    return Build(parser, parser.DroppedEvents ? new RequestTooLargeException(total, budget, maxEventBatchSize ?? 0) : null);
                }

                if (read == 0)
                {
                    throw Truncated(total);
                }
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(window);
        }
    }

    /// <summary>Parses a body already in memory (tests, benchmarks): the same parser, given everything at once.</summary>
    public static InvocationRequest Parse(ReadOnlySpan<byte> json, string triggerName)
    {
        ArgumentNullException.ThrowIfNull(triggerName);
        using var parser = new RequestStreamParser(triggerName);
        Advance(parser, json, isFinalBlock: true);
        return parser.IsDone ? Build(parser) : throw Truncated(json.Length);
    }

    private static int Advance(RequestStreamParser parser, ReadOnlySpan<byte> window, bool isFinalBlock)
    {
        try
        {
            return parser.Advance(window, isFinalBlock);
        }
        catch (Exception e) when (e is JsonException or InvalidOperationException)
        {
            throw Malformed(e);
        }
    }

    /// <summary>The request, once the parser is done: the arrays that came as JSON text inside strings are parsed here.</summary>
    private static InvocationRequest Build(RequestStreamParser parser, RequestTooLargeException? refusal = null)
    {
        try
        {
            return parser.Build(refusal);
        }
        catch (Exception e) when (e is JsonException or InvalidOperationException)
        {
            throw Malformed(e);
        }
    }

    /// <summary>A 400 for a request that is not JSON of the custom-handler shape. Utf8JsonReader checks a string's UTF-8
    /// and escaped surrogates only when the string is read (GetString, CopyString, ValueTextEquals), and throws an
    /// InvalidOperationException for them rather than a JsonException (found by fuzzing).</summary>
    private static InvalidInvocationException Malformed(Exception e) =>
        new($"The request is not well-formed JSON of the custom-handler shape: {e.Message}", e);

    /// <summary>Moves the unconsumed bytes to the front; doubles the window only when a single piece fills it.</summary>
    private static byte[] MakeRoom(byte[] window, ref int start, ref int end)
    {
        var unread = end - start;
        var target = start > 0 ? window : ArrayPool<byte>.Shared.Rent((int)Math.Min(window.Length * 2L, Array.MaxLength));
        window.AsSpan(start, unread).CopyTo(target);
        if (!ReferenceEquals(target, window))
        {
            ArrayPool<byte>.Shared.Return(window);
        }

        start = 0;
        end = unread;
        return target;
    }

    private static InvalidInvocationException Truncated(long bytes) =>
        new($"The request is not well-formed JSON of the custom-handler shape: the body ended after {bytes} bytes, before the request object was complete.");
}
