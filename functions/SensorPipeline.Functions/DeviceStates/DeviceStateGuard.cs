using System.Net;
using System.Text.Json;
using Microsoft.Azure.Cosmos;
using SensorPipeline.Core.DeviceStates;
using SensorPipeline.Core.GeoJson;
using SensorPipeline.Functions.Storage;

namespace SensorPipeline.Functions.DeviceStates;

/// <summary>The device and the version key a guarded write carries.</summary>
internal readonly record struct DeviceState(string DeviceId, string Version);

/// <summary>
/// The guarded write of a device's latest state: newer wins even when two instances hold the same device at once. A
/// point read, the versions compared here, then a replace conditioned on the ETag read: 412 means someone wrote in
/// between, so read and compare again; a stored version at or past ours answers <see cref="WriteResult.Superseded"/>
/// with no write; a missing document is created, and a 409 from that create means another writer created it first.
/// Chosen over a Patch with a filter predicate (one atomic round trip) by the RU it is charged: a patch pays the
/// replace's charge plus 0.4 RU per property it modifies (~14 in a state), the read 1 RU (docs/device-states.md); the extra round trip is the flusher's, off the invocation's path.
/// </summary>
internal sealed class DeviceStateGuard(StoreRetry retry, StoreCanary canary)
{
    /// <summary>
    /// Bound on lost races (409 on create, 412 on replace). Every lost round means another writer's write landed, so
    /// the rounds one write needs are at most the writers of that device in flight at once — one per instance holding
    /// it — and in practice one or two.
    /// </summary>
    private const int MaxRounds = 64;

    /// <summary>The guarded write, whole; a refusal at any step is judged by <see cref="StoreCanary"/> (the whole write runs again if the container takes a known-good write).</summary>
    public Task<WriteOutcome> WriteAsync(Container devices, string deviceId, string version, ReadOnlyMemory<byte> document, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(devices);
        var latest = new DeviceState(deviceId, version);
        return canary.JudgeAsync(devices, "device write", token => ReadReplaceAsync(devices, latest, document, token), cancellationToken);
    }

    /// <summary>Creates the device document; a 409 means another writer created it first (the caller goes round again).</summary>
    private async Task<(bool Conflict, WriteOutcome Outcome)> CreateAsync(Container devices, DeviceState latest, ReadOnlyMemory<byte> document, CancellationToken cancellationToken)
    {
        using var created = await retry.ExecuteAsync(
            devices.Id,
            "create",
            (devices, latest.DeviceId, document),
            static async (s, token) =>
            {
                using var stream = ReadOnlyDocumentStream.Create(s.document);
                return await s.devices.CreateItemStreamAsync(stream, new PartitionKey(s.DeviceId), new ItemRequestOptions { EnableContentResponseOnWrite = false }, token);
            },
            cancellationToken);
        return DocumentWriter.IsConflict(created) ? (true, default) : (false, DocumentWriter.Classify("device create", created));
    }

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
