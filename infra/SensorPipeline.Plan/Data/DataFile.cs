using System.Text.Json;

namespace SensorPipeline.Plan.Data;

/// <summary>A data file the plan reads is wrong or missing: the message names the file and the entry.</summary>
internal sealed class PlanDataException(string message) : Exception(message);

/// <summary>Typed reads of a JSON data file whose errors name the file and the entry.</summary>
internal static class DataFile
{
    public static string String(JsonElement e, string name, string file, string? where = null) =>
        e.TryGetProperty(name, out var v) && v.ValueKind == JsonValueKind.String && !string.IsNullOrWhiteSpace(v.GetString())
            ? v.GetString()!
            : throw Missing(file, where, name, "a non-empty string");

    public static double Number(JsonElement e, string name, string file, string? where = null) =>
        e.TryGetProperty(name, out var v) && v.ValueKind == JsonValueKind.Number && double.IsFinite(v.GetDouble())
            ? v.GetDouble()
            : throw Missing(file, where, name, "a number");

    public static bool Bool(JsonElement e, string name, string file, string? where = null) =>
        e.TryGetProperty(name, out var v) && v.ValueKind is JsonValueKind.True or JsonValueKind.False
            ? v.GetBoolean()
            : throw Missing(file, where, name, "true or false");

    private static PlanDataException Missing(string file, string? where, string name, string what) =>
        new($"{file}: {(where is null ? "" : where + ".")}{name} must be {what}.");
}
