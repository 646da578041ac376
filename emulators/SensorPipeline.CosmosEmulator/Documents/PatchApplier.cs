using System.Globalization;
using System.Text.Json.Nodes;

namespace SensorPipeline.CosmosEmulator.Documents;

/// <summary>One partial-update operation as the SDKs send it: <c>{"op":"set","path":"/a/b","value":…}</c>
/// (ops <c>add</c>, <c>set</c>, <c>replace</c>, <c>remove</c>, <c>incr</c>, <c>move</c> with <c>from</c>).</summary>
internal sealed record PatchOperation(string Op, string Path, JsonNode? Value, string? From);

/// <summary>Applies patch operations the way the service documents them ("Partial document update in Azure Cosmos DB",
/// https://learn.microsoft.com/azure/cosmos-db/partial-document-update): add inserts into arrays and creates or
/// replaces properties; set is add that overwrites an array element; replace and remove need the target to exist;
/// incr adds to a number (creating it when absent); move takes <c>from</c> to <c>path</c>. A failure is a 400.</summary>
internal static class PatchApplier
{
    /// <summary>Most operations one patch request may carry (the service's limit).</summary>
    public const int MaxOperations = 10;

    /// <summary>Reads <c>{"operations":[…],"condition":"…"}</c>.</summary>
    public static (List<PatchOperation> Operations, string? Condition) ParseRequest(ReadOnlyMemory<byte> body)
    {
        // JsonNode checks a string's bytes (property names included) only when it is read (found by fuzzing).
        if (!System.Text.Unicode.Utf8.IsValid(body.Span))
        {
            throw Bad("The patch body is not valid UTF-8.");
        }

        JsonNode? root;
        try
        {
            root = JsonNode.Parse(body.Span);
        }
        catch (JsonException e)
        {
            throw Bad("The patch body is not valid JSON: " + e.Message);
        }

        try
        {
            if (root is not JsonObject request || request["operations"] is not JsonArray operations)
            {
                throw Bad("A patch body needs an 'operations' array.");
            }

            var parsed = ParseOperations(operations);
            var condition = request["condition"] is JsonValue c && c.TryGetValue<string>(out var text) ? text : null;
            return (parsed, condition);
        }
        catch (Exception e) when (e is InvalidOperationException or ArgumentException)
        {
            // JsonNode reads lazily: an 'op' that is not a string, an escaped lone surrogate (InvalidOperationException)
            // or a key twice in one object (ArgumentException) throws when read, not a JsonException at parse (found
            // by fuzzing).
            throw Bad("A patch operation holds a value of the wrong type, a string that is not valid UTF-16 or a duplicate key: " + e.Message);
        }
    }

    public static List<PatchOperation> ParseOperations(JsonArray operations)
    {
        ArgumentNullException.ThrowIfNull(operations);
        if (operations.Count is 0 or > MaxOperations)
        {
            throw Bad($"A patch carries 1 to {MaxOperations} operations, not {operations.Count}.");
        }

        var parsed = new List<PatchOperation>(operations.Count);
        foreach (var item in operations)
        {
            if (item is not JsonObject operation || operation["op"]?.GetValue<string>() is not { } op || operation["path"]?.GetValue<string>() is not { } path)
            {
                throw Bad("Each patch operation needs 'op' and 'path'.");
            }

            parsed.Add(new PatchOperation(op.ToLowerInvariant(), path, operation["value"]?.DeepClone(), operation["from"]?.GetValue<string>()));
        }

        return parsed;
    }

    public static void Apply(JsonObject document, IReadOnlyList<PatchOperation> operations)
    {
        ArgumentNullException.ThrowIfNull(document);
        ArgumentNullException.ThrowIfNull(operations);
        foreach (var operation in operations)
        {
            switch (operation.Op)
            {
                case "add":
                    Insert(document, operation.Path, operation.Value?.DeepClone(), overwriteElement: false);
                    break;
                case "set":
                    Insert(document, operation.Path, operation.Value?.DeepClone(), overwriteElement: true);
                    break;
                case "replace":
                    _ = Get(document, operation.Path) ?? throw Bad($"replace: '{operation.Path}' does not exist.");
                    Insert(document, operation.Path, operation.Value?.DeepClone(), overwriteElement: true);
                    break;
                case "remove":
                    Remove(document, operation.Path);
                    break;
                case "incr":
                    Increment(document, operation);
                    break;
                case "move":
                    var from = operation.From ?? throw Bad("move needs 'from'.");
                    var value = Get(document, from) ?? throw Bad($"move: '{from}' does not exist.");
                    Remove(document, from);
                    Insert(document, operation.Path, value.DeepClone(), overwriteElement: true);
                    break;
                default:
                    throw Bad($"Unknown patch operation '{operation.Op}'.");
            }
        }
    }

    private static void Increment(JsonObject document, PatchOperation operation)
    {
        if (operation.Value is not JsonValue by || by.GetValueKind() != JsonValueKind.Number)
        {
            throw Bad($"incr: the value for '{operation.Path}' must be a number.");
        }

        var current = Get(document, operation.Path);
        JsonNode result;
        if (current is null)
        {
            result = by.DeepClone();
        }
        else if (current is JsonValue number && number.GetValueKind() == JsonValueKind.Number)
        {
            result = number.TryGetValue<long>(out var a) && by.TryGetValue<long>(out var b)
                ? JsonValue.Create(a + b)
                : JsonValue.Create(number.GetValue<double>() + by.GetValue<double>());
        }
        else
        {
            throw Bad($"incr: '{operation.Path}' is not a number.");
        }

        Insert(document, operation.Path, result, overwriteElement: true);
    }

    private static JsonNode? Get(JsonObject document, string path)
    {
        JsonNode? node = document;
        foreach (var segment in Segments(path))
        {
            node = node switch
            {
                JsonObject o => o[segment],
                JsonArray a when TryIndex(segment, a.Count, out var i) => a[i],
                _ => null,
            };
            if (node is null)
            {
                return null;
            }
        }

        return node;
    }

    private static void Insert(JsonObject document, string path, JsonNode? value, bool overwriteElement)
    {
        var (parent, last) = Parent(document, path);
        switch (parent)
        {
            case JsonObject o:
                o[last] = value;
                break;
            case JsonArray a when last == "-":
                a.Add(value);
                break;
            case JsonArray a when TryIndex(last, a.Count + 1, out var i):
                if (overwriteElement && i < a.Count)
                {
                    a[i] = value;
                }
                else
                {
                    a.Insert(i, value);
                }

                break;
            default:
                throw Bad($"'{path}' does not address a property or an array element.");
        }
    }

    private static void Remove(JsonObject document, string path)
    {
        var (parent, last) = Parent(document, path);
        var removed = parent switch
        {
            JsonObject o => o.Remove(last),
            JsonArray a when TryIndex(last, a.Count, out var i) => RemoveAt(a, i),
            _ => false,
        };
        if (!removed)
        {
            throw Bad($"remove: '{path}' does not exist.");
        }
    }

    private static bool RemoveAt(JsonArray array, int index)
    {
        array.RemoveAt(index);
        return true;
    }

    private static (JsonNode Parent, string Last) Parent(JsonObject document, string path)
    {
        var segments = Segments(path);
        if (segments.Length == 0)
        {
            throw Bad("A patch path cannot be the document root.");
        }

        JsonNode? parent = document;
        foreach (var segment in segments[..^1])
        {
            parent = parent switch
            {
                JsonObject o => o[segment],
                JsonArray a when TryIndex(segment, a.Count, out var i) => a[i],
                _ => null,
            };
            if (parent is null)
            {
                throw Bad($"The parent of '{path}' does not exist.");
            }
        }

        return (parent!, segments[^1]);
    }

    private static string[] Segments(string path)
    {
        if (!path.StartsWith('/'))
        {
            throw Bad($"A patch path starts with '/': '{path}'.");
        }

        var segments = path[1..].Split('/');
        for (var i = 0; i < segments.Length; i++)
        {
            segments[i] = segments[i].Replace("~1", "/", StringComparison.Ordinal).Replace("~0", "~", StringComparison.Ordinal);
        }

        return segments;
    }

    private static bool TryIndex(string segment, int count, out int index) =>
        int.TryParse(segment, NumberStyles.None, CultureInfo.InvariantCulture, out index) && index < count;

    private static StoreException Bad(string message) => new(400, "BadRequest", message);
}
