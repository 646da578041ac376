using System.Buffers;
using System.Globalization;
using System.Text;
using System.Text.Json;

namespace SensorPipeline.FunctionsHost.Invocation;

/// <summary>Turns one output binding value from the handler's response into event bodies, as the Functions host
/// does for an <c>eventHub</c> output (an <c>IAsyncCollector&lt;byte[]&gt;</c>):
/// <list type="number">
/// <item>HttpScriptInvocationResultExtensions.GetBindingValue: on a binding whose dataType is not binary, a string
/// that Convert.FromBase64String accepts becomes those bytes — one event.</item>
/// <item>FunctionBinding.ReadAsEnumerable: a JSON array gives its elements; a string that looks like JSON
/// (trimmed, <c>{…}</c> or <c>[…]</c>) is parsed — an array gives its elements, an object one element; anything
/// else is one element.</item>
/// <item>FunctionBinding.BindAsyncCollectorAsync&lt;byte[]&gt;: each element becomes UTF-8 of its ToString():
/// strings raw, numbers as text, booleans "True"/"False", null "", objects and arrays indented JSON.</item>
/// </list></summary>
internal static class OutputConverter
{
    /// <summary>Appends the events for <paramref name="value"/> to <paramref name="events"/>; a null value sends nothing.</summary>
    /// <exception cref="OutputConversionException">A JSON-looking string that does not parse: the host's JToken.Parse
    /// throws and the invocation fails.</exception>
    public static void Convert(JsonElement value, bool isBinaryBinding, List<ReadOnlyMemory<byte>> events)
    {
        switch (value.ValueKind)
        {
            case JsonValueKind.Undefined or JsonValueKind.Null:
                return;
            case JsonValueKind.Array:
                AddElements(value, events);
                return;
            case JsonValueKind.String:
                ConvertString(value.GetString()!, isBinaryBinding, events);
                return;
            default:
                events.Add(ElementBytes(value));
                return;
        }
    }

    private static void ConvertString(string text, bool isBinaryBinding, List<ReadOnlyMemory<byte>> events)
    {
        if (!isBinaryBinding && TryDecodeBase64(text, out var decoded))
        {
            events.Add(decoded);
            return;
        }

        if (LooksLikeJson(text))
        {
            JsonDocument document;
            try
            {
                document = JsonDocument.Parse(text);
            }
            catch (JsonException ex)
            {
                throw new OutputConversionException($"the output string looks like JSON but does not parse: {ex.Message}", ex);
            }

            using (document)
            {
                if (document.RootElement.ValueKind == JsonValueKind.Array)
                {
                    AddElements(document.RootElement, events);
                }
                else
                {
                    events.Add(ElementBytes(document.RootElement));
                }
            }

            return;
        }

        events.Add(Encoding.UTF8.GetBytes(text));
    }

    private static void AddElements(JsonElement array, List<ReadOnlyMemory<byte>> events)
    {
        foreach (var element in array.EnumerateArray())
        {
            events.Add(ElementBytes(element));
        }
    }

    /// <summary>UTF-8 of what JToken.ToString() gives for the element.</summary>
    internal static byte[] ElementBytes(JsonElement element)
    {
        switch (element.ValueKind)
        {
            case JsonValueKind.String:
                return Encoding.UTF8.GetBytes(element.GetString()!);
            case JsonValueKind.True:
                return "True"u8.ToArray();
            case JsonValueKind.False:
                return "False"u8.ToArray();
            case JsonValueKind.Null:
                return [];
            case JsonValueKind.Number:
                return element.TryGetInt64(out var integer)
                    ? Encoding.UTF8.GetBytes(integer.ToString(CultureInfo.InvariantCulture))
                    : Encoding.UTF8.GetBytes(element.GetDouble().ToString(CultureInfo.InvariantCulture));
            default:
                var buffer = new ArrayBufferWriter<byte>(256);
                using (var writer = new Utf8JsonWriter(buffer, NewtonsoftFormats.Indented))
                {
                    element.WriteTo(writer);
                }

                return buffer.WrittenSpan.ToArray();
        }
    }

    /// <summary>Utility.IsJson in the host: trimmed text that starts with '{' and ends with '}', or '[' and ']'.</summary>
    internal static bool LooksLikeJson(string text)
    {
        var trimmed = text.AsSpan().Trim();
        return trimmed.Length > 0
            && ((trimmed[0] == '{' && trimmed[^1] == '}') || (trimmed[0] == '[' && trimmed[^1] == ']'));
    }

    /// <summary>Convert.FromBase64String's acceptance, without an exception per plain string: whitespace is ignored,
    /// padding is required, the empty string is valid (zero bytes).</summary>
    internal static bool TryDecodeBase64(string text, out byte[]? bytes)
    {
        var buffer = ArrayPool<byte>.Shared.Rent(Math.Max(4, (text.Length * 3 / 4) + 3));
        try
        {
            if (System.Convert.TryFromBase64String(text, buffer, out var written))
            {
                bytes = buffer.AsSpan(0, written).ToArray();
                return true;
            }

            bytes = null;
            return false;
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }
}

/// <summary>An output value the host could not bind: the invocation fails and nothing is sent.</summary>
public sealed class OutputConversionException : Exception
{
    public OutputConversionException()
    {
    }

    public OutputConversionException(string message)
        : base(message)
    {
    }

    public OutputConversionException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
