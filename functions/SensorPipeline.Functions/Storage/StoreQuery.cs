using System.Runtime.CompilerServices;
using System.Text.Json;
using Microsoft.Azure.Cosmos;

namespace SensorPipeline.Functions.Storage;

/// <summary>Reading what a stream query returns, page by page.</summary>
internal static class StoreQuery
{
    /// <summary>
    /// Every document <paramref name="iterator"/> returns. A page the store refuses is a
    /// <see cref="StoreUnavailableException"/> naming <paramref name="what"/>. A document is valid until the next one is
    /// asked for (its page is released after its last document).
    /// </summary>
    public static async IAsyncEnumerable<JsonElement> DocumentsAsync(FeedIterator iterator, string what, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        while (iterator.HasMoreResults)
        {
            using var page = await iterator.ReadNextAsync(cancellationToken);
            if (!page.IsSuccessStatusCode)
            {
                throw new StoreUnavailableException(what, page.StatusCode, 1, null);
            }

            using var json = await JsonDocument.ParseAsync(page.Content, cancellationToken: cancellationToken);
            foreach (var document in json.RootElement.GetProperty("Documents").EnumerateArray())
            {
                yield return document;
            }
        }
    }
}
