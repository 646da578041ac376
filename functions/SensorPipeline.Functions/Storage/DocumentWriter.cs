using System.Net;
using Microsoft.Azure.Cosmos;

namespace SensorPipeline.Functions.Storage;

/// <summary>
/// Upserts pre-serialized documents. The ids are deterministic, so an upsert of a redelivered reading overwrites
/// itself: at-least-once delivery never creates a duplicate.
/// </summary>
internal sealed class DocumentWriter(StoreRetry retry)
{
    private static readonly ItemRequestOptions NoContent = new() { EnableContentResponseOnWrite = false };

    public async Task<WriteOutcome> UpsertAsync(Container container, string partitionKey, ReadOnlyMemory<byte> document, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(container);
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

    /// <summary>True when the document exists (200), false when it does not (404).</summary>
    public async Task<bool> ExistsAsync(Container container, string partitionKey, string id, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(container);
        using var response = await retry.ExecuteAsync(
            container.Id,
            "read",
            (container, partitionKey, id),
            static (s, token) => s.container.ReadItemStreamAsync(s.id, new PartitionKey(s.partitionKey), cancellationToken: token),
            cancellationToken);
        return response.StatusCode switch
        {
            HttpStatusCode.OK => true,
            HttpStatusCode.NotFound => false,
            _ => throw Unavailable("read", response),
        };
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

    public static WriteOutcome Classify(string operation, ResponseMessage response)
    {
        ArgumentNullException.ThrowIfNull(response);
        if (StoreStatus.IsSuccess(response.StatusCode))
        {
            return WriteOutcome.Written(response.StatusCode);
        }

        if (StoreStatus.IsPermanentRejection(response.StatusCode))
        {
            return new WriteOutcome(WriteResult.Rejected, response.StatusCode, Describe(response));
        }

        // 401/403/404 (container missing) and the like: no retry here fixes them, and dropping the batch would lose it.
        throw Unavailable(operation, response);
    }

    /// <summary>An answer no retry here fixes (401/403/404 container missing, …): the invocation fails, the batch is kept.</summary>
    internal static StoreUnavailableException Unavailable(string operation, ResponseMessage response) =>
        new(operation, response.StatusCode, 1, new CosmosException(Describe(response), response.StatusCode, 0, response.Headers.ActivityId, 0));

    private static string Describe(ResponseMessage response) =>
        string.IsNullOrEmpty(response.ErrorMessage)
            ? ((int)response.StatusCode).ToString(System.Globalization.CultureInfo.InvariantCulture)
            : $"{(int)response.StatusCode}: {Truncate(response.ErrorMessage, 1000)}";

    private static string Truncate(string text, int max) => text.Length <= max ? text : text[..max];

    internal static bool IsConflict(ResponseMessage response) => response.StatusCode == HttpStatusCode.Conflict;
}
