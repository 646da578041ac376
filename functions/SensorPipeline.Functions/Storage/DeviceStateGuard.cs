using System.Net;
using System.Text;
using System.Text.Json;
using Microsoft.Azure.Cosmos;
using Microsoft.Extensions.Options;
using Newtonsoft.Json.Linq;
using SensorPipeline.Core.GeoJson;
using SensorPipeline.Core.Processing;
using SensorPipeline.Functions.Options;

namespace SensorPipeline.Functions.Storage;

/// <summary>
/// The guarded write of a device's latest state: newer wins even when batches for the same device are in flight
/// on two partitions (or two instances) at once. Two equivalent strategies (<see cref="PipelineOptions.DeviceWrite"/>):
/// <list type="bullet">
/// <item><see cref="DeviceWriteMode.Patch"/>: a patch carrying the server-side filter
/// <c>FROM c WHERE c.version &lt; '&lt;new version&gt;'</c>, so the compare and the write are one atomic step:
/// 200 it was older and is now ours; 412 a newer (or the same) reading is already there; 404 the device is new, so
/// it is created, and a 409 from that create means another writer created it first — the patch runs again.</item>
/// <item><see cref="DeviceWriteMode.ReadReplace"/>: a point read, then (if ours is newer) a replace conditioned on
/// the ETag read; 412 means someone wrote in between, so read and compare again.</item>
/// </list>
/// </summary>
/// <summary>The device and the version key a guarded write carries.</summary>
internal readonly record struct DeviceState(string DeviceId, string Version);

internal sealed partial class DeviceStateGuard(StoreRetry retry, StoreCanary canary, IOptions<PipelineOptions> options)
{
    /// <summary>
    /// Bound on lost races (409 on create, 412 on replace). Every lost round means another writer's write landed, so
    /// the rounds one write needs are at most the writers of that device in flight at once — at most one per
    /// partition (32 on Standard) — and in practice one or two.
    /// </summary>
    private const int MaxRounds = 64;

    private readonly DeviceWriteMode _mode = options.Value.DeviceWrite;

    /// <summary>The guarded write, whole; a refusal at any step is judged by <see cref="StoreCanary"/> (the whole write runs again if the container takes a known-good write).</summary>
    public Task<WriteOutcome> WriteAsync(Container devices, string deviceId, string version, ReadOnlyMemory<byte> document, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(devices);
        var latest = new DeviceState(deviceId, version);
        return canary.JudgeAsync(devices, "device write", token => _mode == DeviceWriteMode.ReadReplace
            ? ReadReplaceAsync(devices, latest, document, token)
            : PatchAsync(devices, latest, document, token), cancellationToken);
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

    private async Task<WriteOutcome> PatchAsync(Container devices, DeviceState latest, ReadOnlyMemory<byte> document, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(devices);
        var operations = PatchFor(latest, document.Span);
        var patchOptions = new PatchItemRequestOptions
        {
            // The version key is fixed-width digits and '.', so inlining it cannot break the SQL text. A stored document
            // without a string version (written by something else) is older than any reading — as ReadReplace decides —
            // since "undefined < string" is undefined in Cosmos DB SQL and would otherwise block the device forever.
            FilterPredicate = $"FROM c WHERE NOT IS_STRING(c.{DeviceStateWriter.VersionProperty}) OR c.{DeviceStateWriter.VersionProperty} < '{latest.Version}'",
            EnableContentResponseOnWrite = false,
        };

        for (var round = 0; round < MaxRounds; round++)
        {
            using (var patched = await retry.ExecuteAsync(
                devices.Id,
                "patch",
                (devices, latest.DeviceId, operations, patchOptions),
                static (s, token) => s.devices.PatchItemStreamAsync(s.DeviceId, new PartitionKey(s.DeviceId), s.operations, s.patchOptions, token),
                cancellationToken))
            {
                if (patched.StatusCode == HttpStatusCode.PreconditionFailed)
                {
                    return new WriteOutcome(WriteResult.Superseded, patched.StatusCode);
                }

                if (patched.StatusCode != HttpStatusCode.NotFound)
                {
                    return DocumentWriter.Classify("device patch", patched);
                }
            }

            var (conflict, outcome) = await CreateAsync(devices, latest, document, cancellationToken);
            if (!conflict)
            {
                return outcome;
            }
        }

        throw new StoreUnavailableException("device write", HttpStatusCode.Conflict, MaxRounds, null);
    }

    /// <summary>
    /// Set the version, geometry and properties from the device document the core rendered, so the document is
    /// the single source of truth for both the create and the patch. JRaw passes the JSON through unchanged.
    /// </summary>
    internal static IReadOnlyList<PatchOperation> PatchFor(in DeviceState latest, ReadOnlySpan<byte> document)
    {
        string? geometry = null;
        string? properties = null;
        var reader = new Utf8JsonReader(document);
        reader.Read(); // StartObject
        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            var isGeometry = reader.ValueTextEquals("geometry"u8);
            var isProperties = !isGeometry && reader.ValueTextEquals("properties"u8);
            reader.Read();
            var start = (int)reader.TokenStartIndex;
            reader.Skip();
            if (isGeometry || isProperties)
            {
                var text = Encoding.UTF8.GetString(document[start..(int)reader.BytesConsumed]);
                if (isGeometry)
                {
                    geometry = text;
                }
                else
                {
                    properties = text;
                }
            }
        }

        return geometry is null || properties is null
            ? throw new InvalidOperationException($"The device document for '{latest.DeviceId}' has no geometry or properties.")
            : [
                PatchOperation.Set("/" + DeviceStateWriter.VersionProperty, latest.Version),
                PatchOperation.Set("/geometry", new JRaw(geometry)),
                PatchOperation.Set("/properties", new JRaw(properties)),
            ];
    }
}
