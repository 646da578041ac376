using System.Text;
using System.Text.Json;

namespace SensorPipeline.CosmosEmulator.Query.Tests;

/// <summary>Runs queries over documents written as JSON text and returns each result item as compact JSON text.</summary>
internal static class Run
{
    public static IReadOnlyList<string> Query(string sql, IEnumerable<string> documents, params (string Name, string Json)[] parameters) =>
        Execute(sql, documents, parameters).Items.Select(Encoding.UTF8.GetString).ToList();

    public static QueryResult Execute(string sql, IEnumerable<string> documents, params (string Name, string Json)[] parameters) =>
        SqlQuery.Parse(sql).Execute(documents.Select(Utf8).ToList(), Parameters(parameters));

    public static IReadOnlyList<KeyValuePair<string, JsonElement>> Parameters(params (string Name, string Json)[] parameters) =>
        parameters.Select(p => new KeyValuePair<string, JsonElement>(p.Name, JsonDocument.Parse(p.Json).RootElement)).ToList();

    public static ReadOnlyMemory<byte> Utf8(string json) => Encoding.UTF8.GetBytes(json);

    /// <summary>Compact form of a JSON text, so expectations can be written with any spacing.</summary>
    public static string Compact(string json)
    {
        using var document = JsonDocument.Parse(json);
        return JsonSerializer.Serialize(document.RootElement);
    }
}
