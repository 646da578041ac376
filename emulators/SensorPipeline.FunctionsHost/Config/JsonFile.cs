using System.Globalization;
using System.Text.Json;

namespace SensorPipeline.FunctionsHost.Config;

/// <summary>Reads one JSON config file with errors that name the file and the field. Property names match
/// case-insensitively, as the Functions host's configuration does; comments and trailing commas are allowed
/// (host.json and function.json may carry them).</summary>
internal sealed class JsonFile
{
    private static readonly JsonDocumentOptions Options = new() { CommentHandling = JsonCommentHandling.Skip, AllowTrailingCommas = true };

    private JsonFile(string path, JsonElement root)
    {
        Path = path;
        Root = root;
    }

    public string Path { get; }

    public JsonElement Root { get; }

    public static async Task<JsonFile> LoadAsync(string path, CancellationToken cancellationToken)
    {
        var bytes = await File.ReadAllBytesAsync(path, cancellationToken);
        try
        {
            using var document = JsonDocument.Parse(bytes, Options);
            var file = new JsonFile(path, document.RootElement.Clone());
            if (file.Root.ValueKind != JsonValueKind.Object)
            {
                throw new FunctionAppConfigurationException(path, "$", $"expected a JSON object, found {file.Root.ValueKind}");
            }

            return file;
        }
        catch (JsonException ex)
        {
            throw new FunctionAppConfigurationException(path, $"line {ex.LineNumber + 1}, byte {ex.BytePositionInLine + 1}", $"malformed JSON: {ex.Message}");
        }
    }

    public FunctionAppConfigurationException Error(string field, string problem) => new(Path, field, problem);

    public static bool TryGet(JsonElement obj, string name, out JsonElement value)
    {
        if (obj.ValueKind == JsonValueKind.Object)
        {
            foreach (var property in obj.EnumerateObject())
            {
                if (string.Equals(property.Name, name, StringComparison.OrdinalIgnoreCase))
                {
                    value = property.Value;
                    return value.ValueKind != JsonValueKind.Null;
                }
            }
        }

        value = default;
        return false;
    }

    public JsonElement? Object(JsonElement parent, string name, string field)
    {
        if (!TryGet(parent, name, out var value))
        {
            return null;
        }

        return value.ValueKind == JsonValueKind.Object ? value : throw Error(field, $"expected an object, found {value.ValueKind}");
    }

    public string? String(JsonElement parent, string name, string field)
    {
        if (!TryGet(parent, name, out var value))
        {
            return null;
        }

        return value.ValueKind == JsonValueKind.String ? value.GetString() : throw Error(field, $"expected a string, found {value.ValueKind}");
    }

    public int? Int(JsonElement parent, string name, string field)
    {
        if (!TryGet(parent, name, out var value))
        {
            return null;
        }

        // The Functions host binds host.json through IConfiguration, where "100" and 100 are the same value.
        if (value.ValueKind == JsonValueKind.Number && value.TryGetInt32(out var number))
        {
            return number;
        }

        if (value.ValueKind == JsonValueKind.String && int.TryParse(value.GetString(), NumberStyles.Integer, CultureInfo.InvariantCulture, out number))
        {
            return number;
        }

        throw Error(field, $"expected an integer, found {value.ValueKind} {value.GetRawText()}");
    }

    public TimeSpan? Duration(JsonElement parent, string name, string field)
    {
        var text = String(parent, name, field);
        if (text is null)
        {
            return null;
        }

        return TimeSpan.TryParse(text, CultureInfo.InvariantCulture, out var span)
            ? span
            : throw Error(field, $"expected a duration like \"00:01:00\", found \"{text}\"");
    }
}
