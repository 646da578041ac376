using System.Globalization;
using System.Text.Json;
using System.Text.RegularExpressions;

namespace SensorPipeline.EventHubs;

/// <summary>Reads a namespace config in the format of Microsoft's Event Hubs emulator <c>Config.json</c>:
/// <c>{"UserConfig":{"NamespaceConfig":[{"Type":"EventHub","Name":"…","Entities":[{"Name":"…","PartitionCount":"4",
/// "ConsumerGroups":[{"Name":"…"}]}]}],"LoggingConfig":{"Type":"File"}}}</c>. <c>PartitionCount</c> may be a string
/// (as Microsoft's samples write it) or a number. <c>LoggingConfig</c> is accepted and ignored.
/// Every problem throws <see cref="NamespaceConfigException"/> naming the file and the field.</summary>
public static partial class NamespaceConfigLoader
{
    /// <summary>The Microsoft emulator's limit, kept so a config that works here works there.</summary>
    public const int MaxPartitionCount = 32;

    public static NamespaceConfig Load(string path)
    {
        ArgumentNullException.ThrowIfNull(path);
        string text;
        try
        {
            text = File.ReadAllText(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw new NamespaceConfigException(path, "(file)", $"cannot be read: {e.Message}", e);
        }

        return Parse(text, path);
    }

    public static NamespaceConfig Parse(string json, string fileName)
    {
        ArgumentNullException.ThrowIfNull(json);
        ArgumentNullException.ThrowIfNull(fileName);
        JsonDocument document;
        try
        {
            document = JsonDocument.Parse(json, new JsonDocumentOptions { CommentHandling = JsonCommentHandling.Skip, AllowTrailingCommas = true });
        }
        catch (JsonException e)
        {
            throw new NamespaceConfigException(fileName, $"(line {e.LineNumber + 1}, byte {e.BytePositionInLine + 1})", $"is not valid JSON: {e.Message}", e);
        }

        using (document)
        {
            var reader = new Reader(fileName);
            var userConfig = reader.Property(document.RootElement, "", "UserConfig", JsonValueKind.Object);
            var namespaces = reader.Property(userConfig, "UserConfig", "NamespaceConfig", JsonValueKind.Array);
            var eventHubNamespaces = namespaces.EnumerateArray()
                .Select((element, index) => (element, index))
                .Where(n => n.element.ValueKind == JsonValueKind.Object
                    && (!n.element.TryGetProperty("Type", out var type) || string.Equals(type.GetString(), "EventHub", StringComparison.OrdinalIgnoreCase)))
                .ToList();
            if (eventHubNamespaces.Count != 1)
            {
                throw new NamespaceConfigException(fileName, "UserConfig.NamespaceConfig", $"must hold exactly one namespace of Type \"EventHub\", found {eventHubNamespaces.Count}");
            }

            var (ns, nsIndex) = eventHubNamespaces[0];
            var nsPath = $"UserConfig.NamespaceConfig[{nsIndex}]";
            var name = reader.Name(ns, nsPath);
            var entities = reader.Property(ns, nsPath, "Entities", JsonValueKind.Array);
            var hubs = new List<EventHubDescription>();
            var index = 0;
            foreach (var entity in entities.EnumerateArray())
            {
                var path = $"{nsPath}.Entities[{index++}]";
                if (entity.ValueKind != JsonValueKind.Object)
                {
                    throw new NamespaceConfigException(fileName, path, "must be an object");
                }

                var hubName = reader.Name(entity, path);
                if (hubs.Any(h => string.Equals(h.Name, hubName, StringComparison.OrdinalIgnoreCase)))
                {
                    throw new NamespaceConfigException(fileName, path + ".Name", $"\"{hubName}\" is defined twice (names are case-insensitive)");
                }

                hubs.Add(new EventHubDescription(hubName, reader.PartitionCount(entity, path), reader.ConsumerGroups(entity, path)));
            }

            if (hubs.Count == 0)
            {
                throw new NamespaceConfigException(fileName, nsPath + ".Entities", "must list at least one event hub");
            }

            return new NamespaceConfig(name, hubs);
        }
    }

    // Event Hubs entity names: letters, digits, '.', '-', '_', starting and ending with a letter or digit.
    [GeneratedRegex("^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,254}[A-Za-z0-9])?$")]
    private static partial Regex EntityName();

    private sealed class Reader(string fileName)
    {
        public JsonElement Property(JsonElement parent, string parentPath, string name, JsonValueKind kind)
        {
            var path = parentPath.Length == 0 ? name : $"{parentPath}.{name}";
            if (parent.ValueKind != JsonValueKind.Object || !parent.TryGetProperty(name, out var value))
            {
                throw new NamespaceConfigException(fileName, path, "is missing");
            }

            if (value.ValueKind != kind)
            {
                throw new NamespaceConfigException(fileName, path, $"must be a JSON {kind.ToString().ToLowerInvariant()}, got {value.ValueKind.ToString().ToLowerInvariant()}");
            }

            return value;
        }

        public string Name(JsonElement parent, string parentPath)
        {
            var name = Property(parent, parentPath, "Name", JsonValueKind.String).GetString()!;
            if (!EntityName().IsMatch(name))
            {
                throw new NamespaceConfigException(fileName, parentPath + ".Name", $"\"{name}\" is not a valid name (1-256 letters, digits, '.', '-', '_', starting and ending with a letter or digit)");
            }

            return name;
        }

        public int PartitionCount(JsonElement entity, string path)
        {
            var field = path + ".PartitionCount";
            if (!entity.TryGetProperty("PartitionCount", out var value))
            {
                throw new NamespaceConfigException(fileName, field, "is missing");
            }

            var ok = value.ValueKind switch
            {
                JsonValueKind.Number => value.TryGetInt32(out var n) ? n : (int?)null,
                JsonValueKind.String => int.TryParse(value.GetString(), NumberStyles.None, CultureInfo.InvariantCulture, out var n) ? n : null,
                _ => null,
            };
            if (ok is not { } count || count < 1 || count > MaxPartitionCount)
            {
                throw new NamespaceConfigException(fileName, field, $"must be a whole number from 1 to {MaxPartitionCount} (a string or a number), got {value.GetRawText()}");
            }

            return count;
        }

        public List<string> ConsumerGroups(JsonElement entity, string path)
        {
            var groups = new List<string> { "$Default" };
            if (!entity.TryGetProperty("ConsumerGroups", out var array) || array.ValueKind == JsonValueKind.Null)
            {
                return groups;
            }

            if (array.ValueKind != JsonValueKind.Array)
            {
                throw new NamespaceConfigException(fileName, path + ".ConsumerGroups", "must be a JSON array");
            }

            var index = 0;
            foreach (var group in array.EnumerateArray())
            {
                var groupPath = $"{path}.ConsumerGroups[{index++}]";
                if (group.ValueKind != JsonValueKind.Object)
                {
                    throw new NamespaceConfigException(fileName, groupPath, "must be an object with a Name");
                }

                var name = group.TryGetProperty("Name", out var n) && n.ValueKind == JsonValueKind.String && n.GetString() == "$Default"
                    ? "$Default"
                    : Name(group, groupPath);
                if (groups.Contains(name, StringComparer.OrdinalIgnoreCase))
                {
                    if (name == "$Default")
                    {
                        continue;
                    }

                    throw new NamespaceConfigException(fileName, groupPath + ".Name", $"\"{name}\" is defined twice");
                }

                groups.Add(name);
            }

            return groups;
        }
    }
}
