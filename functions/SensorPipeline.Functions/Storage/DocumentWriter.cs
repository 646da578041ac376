using System.Net;
using Microsoft.Azure.Cosmos;

namespace SensorPipeline.Functions.Storage;

/// <summary>
/// Upserts pre-serialized documents. The ids are deterministic, so an upsert of a redelivered reading overwrites
/// itself: at-least-once delivery never creates a duplicate. A refused upsert is judged by <see cref="StoreCanary"/>.
/// </summary>
internal sealed class DocumentWriter(StoreRetry retry, StoreCanary canary)
{
    private static readonly ItemRequestOptions NoContent = new() { EnableContentResponseOnWrite = false };

    /// <summary>Written, or <see cref="WriteResult.Rejected"/> (this document's refusal); throws when the store is unavailable or refuses everything.</summary>
    public Task<WriteOutcome> UpsertAsync(Container container, string partitionKey, ReadOnlyMemory<byte> document, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(container);
        return canary.JudgeAsync(container, "upsert", token => UpsertOnceAsync(container, partitionKey, document, token), cancellationToken);
    }

    private async Task<WriteOutcome> UpsertOnceAsync(Container container, string partitionKey, ReadOnlyMemory<byte> document, CancellationToken cancellationToken)
    {
        using var response = await retry.ExecuteAsync(
            container.Id,
            "upsert",
            (container, partitionKey, document),
            static async (s, token) =>
            {
                using var stream = ReadOnlyDocumentStream.Create(s.document);
                return await s.container.UpsertItemStreamAsync(stream, new PartitionKey(s.partitionKey), NoContent, token);
            },
            cancellationToken);
        return Classify("upsert", response);
    }

    /// <summary>
    /// The ids of <paramref name="items"/> that exist in <paramref name="container"/>: one ReadMany (one query per
    /// partition key range holding any of them), however many items, instead of a point read each.
    /// </summary>
    public async Task<HashSet<string>> ExistingAsync(Container container, IReadOnlyList<(string Id, PartitionKey Key)> items, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(container);
        ArgumentNullException.ThrowIfNull(items);
        var found = new HashSet<string>(StringComparer.Ordinal);
        if (items.Count == 0)
        {
            return found;
        }

        using var response = await retry.ExecuteAsync(
            container.Id,
            "read-many",
            (container, items),
            static (s, token) => s.container.ReadManyItemsStreamAsync(s.items, cancellationToken: token),
            cancellationToken);
        if (!StoreStatus.IsSuccess(response.StatusCode))
        {
            throw Unavailable("read-many", response);
        }

        await StoredIds.CollectAsync(response.Content, found, cancellationToken);
        return found;
    }

    /// <summary>Deletes a document if it exists; true when one was deleted.</summary>
    public async Task<bool> DeleteIfExistsAsync(Container container, string partitionKey, string id, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(container);
        using var response = await retry.ExecuteAsync(
            container.Id,
            "delete",
            (container, partitionKey, id),
            static (s, token) => s.container.DeleteItemStreamAsync(s.id, new PartitionKey(s.partitionKey), cancellationToken: token),
            cancellationToken);
        return response.StatusCode switch
        {
            HttpStatusCode.NoContent or HttpStatusCode.OK => true,
            HttpStatusCode.NotFound => false,
            _ => throw Unavailable("delete", response),
        };
    }

    /// <summary>
    /// Written, or <see cref="WriteResult.Refused"/> for <see cref="StoreCanary"/> to judge; an answer that is transient by
    /// its cause (403.3, 404.1002/1013) throws, so the invocation fails and the host retries.
    /// </summary>
    public static WriteOutcome Classify(string operation, ResponseMessage response)
    {
        ArgumentNullException.ThrowIfNull(response);
        if (StoreStatus.IsSuccess(response.StatusCode))
        {
            return WriteOutcome.Written(response.StatusCode);
        }

        return StoreStatus.FaultOf(response.StatusCode, StoreStatus.SubStatus(response.Headers)) == StoreFault.Refused
            ? new WriteOutcome(WriteResult.Refused, response.StatusCode, Describe(response))
            : throw Unavailable(operation, response);
    }

    /// <summary>
    /// A failed answer no write of ours is judged by: transient by its cause, or a refused read or delete — reads and
    /// deletes are never about one document, so such a refusal is systemic. The invocation fails and the batch is kept.
    /// </summary>
    internal static StoreUnavailableException Unavailable(string operation, ResponseMessage response)
    {
        var subStatus = StoreStatus.SubStatus(response.Headers);
        return new(operation, response.StatusCode, 1, new CosmosException(Describe(response), response.StatusCode, subStatus, response.Headers.ActivityId, 0))
        {
            Fault = StoreStatus.FaultOf(response.StatusCode, subStatus) == StoreFault.Transient ? StoreFault.Transient : StoreFault.Systemic,
            SubStatus = subStatus,
        };
    }

    /// <summary>The store's answer as text: status and (the start of) its message.</summary>
    internal static string Describe(ResponseMessage response) =>
        string.IsNullOrEmpty(response.ErrorMessage)
            ? ((int)response.StatusCode).ToString(System.Globalization.CultureInfo.InvariantCulture)
            : $"{(int)response.StatusCode}: {Truncate(response.ErrorMessage, 1000)}";

    private static string Truncate(string text, int max) => text.Length <= max ? text : text[..max];

    internal static bool IsConflict(ResponseMessage response) => response.StatusCode == HttpStatusCode.Conflict;
}
