using System.Text.Json;

namespace SensorPipeline.Functions.Storage;

/// <summary>Reads the <c>id</c> of every document in a feed answer (<c>{"Documents":[{…},…],…}</c>) without a DOM.</summary>
internal static class StoredIds
{
    /// <summary>Adds the ids of the answer's documents to <paramref name="ids"/>.</summary>
    public static Task<HashSet<string>> CollectAsync(Stream? content, HashSet<string> ids, CancellationToken cancellationToken) =>
        ResponseContent.ParseAsync(content, ids, json =>
        {
            Collect(json, ids);
            return ids;
        }, cancellationToken);

    /// <summary>The top-level <c>id</c> of each object in the root's <c>Documents</c> array.</summary>
    internal static void Collect(ReadOnlySpan<byte> json, HashSet<string> ids)
    {
        var reader = new Utf8JsonReader(json);
        var inDocuments = false;
        while (reader.Read())
        {
            if (reader.TokenType != JsonTokenType.PropertyName)
            {
                continue;
            }

            if (reader.CurrentDepth == 1)
            {
                inDocuments = reader.ValueTextEquals("Documents"u8);
            }
            else if (inDocuments && reader.CurrentDepth == 3 && reader.ValueTextEquals("id"u8))
            {
                reader.Read();
                if (reader.TokenType == JsonTokenType.String)
                {
                    ids.Add(reader.GetString()!);
                }
            }
        }
    }
}
