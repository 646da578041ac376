using System.Buffers;
using System.Text.Json;

namespace SensorPipeline.Functions.Storage;

/// <summary>Reads the <c>id</c> of every document in a feed answer (<c>{"Documents":[{…},…],…}</c>) without a DOM.</summary>
internal static class StoredIds
{
    /// <summary>Adds the ids of the answer's documents to <paramref name="ids"/>.</summary>
    public static async Task CollectAsync(Stream? content, HashSet<string> ids, CancellationToken cancellationToken)
    {
        if (content is null)
        {
            return;
        }

        var buffer = ArrayPool<byte>.Shared.Rent(16 * 1024);
        try
        {
            var length = 0;
            int read;
            while ((read = await content.ReadAsync(buffer.AsMemory(length), cancellationToken)) > 0)
            {
                length += read;
                if (length == buffer.Length)
                {
                    var larger = ArrayPool<byte>.Shared.Rent(buffer.Length * 2);
                    buffer.AsSpan(0, length).CopyTo(larger);
                    ArrayPool<byte>.Shared.Return(buffer);
                    buffer = larger;
                }
            }

            Collect(buffer.AsSpan(0, length), ids);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

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
