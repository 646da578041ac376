using System.Net;
using System.Text.Json;
using Microsoft.Azure.Cosmos;
using SensorPipeline.Core.GeoJson;
using SensorPipeline.Core.Processing;

namespace SensorPipeline.Functions.Storage;

/// <summary>The ETag-conditioned strategy: read, compare versions here, replace only if the document is unchanged.</summary>
internal sealed partial class DeviceStateGuard
{
    private async Task<WriteOutcome> ReadReplaceAsync(Container devices, DeviceState latest, ReadOnlyMemory<byte> document, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(devices);
        for (var round = 0; round < MaxRounds; round++)
        {
            string? etag;
            using (var read = await retry.ExecuteAsync(
                devices.Id,
                "read",
                (devices, latest.DeviceId),
                static (s, token) => s.devices.ReadItemStreamAsync(s.DeviceId, new PartitionKey(s.DeviceId), cancellationToken: token),
                cancellationToken))
            {
                // Missing: the create below settles it (201, or 409 if another writer created it meanwhile).
                if (read.StatusCode == HttpStatusCode.NotFound)
                {
                    var (conflict, outcome) = await CreateAsync(devices, latest, document, cancellationToken);
                    if (!conflict)
                    {
                        return outcome;
                    }

                    continue;
                }

                if (read.StatusCode != HttpStatusCode.OK)
                {
                    return DocumentWriter.Classify("device read", read);
                }

                var stored = await StoredVersionAsync(read.Content, cancellationToken);
                if (stored is not null && string.CompareOrdinal(stored, latest.Version) >= 0)
                {
                    return new WriteOutcome(WriteResult.Superseded, HttpStatusCode.PreconditionFailed);
                }

                etag = read.Headers.ETag;
            }

            using var replaced = await retry.ExecuteAsync(
                devices.Id,
                "replace",
                (devices, latest.DeviceId, document, etag),
                static async (s, token) =>
                {
                    using var stream = ReadOnlyDocumentStream.Create(s.document);
                    var conditional = new ItemRequestOptions { IfMatchEtag = s.etag, EnableContentResponseOnWrite = false };
                    return await s.devices.ReplaceItemStreamAsync(stream, s.DeviceId, new PartitionKey(s.DeviceId), conditional, token);
                },
                cancellationToken);
            if (replaced.StatusCode is not (HttpStatusCode.PreconditionFailed or HttpStatusCode.NotFound))
            {
                return DocumentWriter.Classify("device replace", replaced);
            }

            // 412: another writer changed it after our read; 404: it was deleted. Read and decide again.
        }

        throw new StoreUnavailableException("device write", HttpStatusCode.PreconditionFailed, MaxRounds, null);
    }

    /// <summary>The stored document's <c>version</c>, or null when it has none (then any reading is newer).</summary>
    private static Task<string?> StoredVersionAsync(Stream? content, CancellationToken cancellationToken) =>
        ResponseContent.ParseAsync(content, null, VersionOf, cancellationToken);

    private static string? VersionOf(ReadOnlySpan<byte> json)
    {
        var reader = new Utf8JsonReader(json);
        if (!reader.Read() || reader.TokenType != JsonTokenType.StartObject)
        {
            return null;
        }

        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            var isVersion = reader.ValueTextEquals(DeviceStateWriter.VersionProperty);
            reader.Read();
            if (isVersion)
            {
                return reader.TokenType == JsonTokenType.String ? reader.GetString() : null;
            }

            reader.Skip();
        }

        return null;
    }
}
