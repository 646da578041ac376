using System.Text;
using System.Text.Json;
using SensorPipeline.CosmosEmulator.Query;

namespace SensorPipeline.Fuzz.Targets;

/// <summary>
/// SQL text through the Cosmos DB emulator's query engine: parsed as a query (the query plan written, the index use
/// judged, executed over stored documents with parameters), and as a Patch filter predicate (matched against a
/// document). The only refusal is <see cref="SqlQueryException"/>: its message is the 400 body.
/// </summary>
internal static class CosmosSqlTarget
{
    private static readonly byte[][] Documents =
    [
        CosmosJsonTarget.StoredDocument,
        """{"id":"b","deviceId":"d2","n":3,"s":"x","arr":[1,[2,3],{"k":null}],"o":{"p":{"q":true}},"version":"1"}"""u8.ToArray(),
        """{"id":"c","deviceId":"d3","n":-1.5e300,"s":"","arr":[],"o":null}"""u8.ToArray(),
    ];

    private static readonly List<KeyValuePair<string, JsonElement>> Parameters =
    [
        new("@n", JsonSerializer.SerializeToElement(2)),
        new("@s", JsonSerializer.SerializeToElement("x")),
        new("@a", JsonSerializer.SerializeToElement(new[] { 1, 2 })),
    ];

    internal static void Run(byte[] input)
    {
        // The same text through both parsers: a query the engine refuses may still be a valid predicate, and the other
        // way round. Each refusal is a SqlQueryException (its message the 400 body); nothing else may escape.
        var text = Encoding.UTF8.GetString(input);
        try
        {
            Query(text);
        }
        catch (SqlQueryException)
        {
        }

        try
        {
            var predicate = SqlQuery.ParsePredicate(text);
            foreach (var document in Documents)
            {
                _ = predicate.Matches(document, Parameters);
            }
        }
        catch (SqlQueryException)
        {
        }
    }

    private static void Query(string text)
    {
        var query = SqlQuery.Parse(text);
        using (var writer = new Utf8JsonWriter(Stream.Null))
        {
            query.WriteQueryPlan(writer);
        }

        _ = query.FilterUsesIndex(_ => true, _ => true);
        _ = query.Execute(Documents.Select(d => (ReadOnlyMemory<byte>)d), Parameters).Items.Count;
    }
}
