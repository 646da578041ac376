using System.Globalization;
using Azure;
using Azure.Messaging.EventHubs.Consumer;
using Azure.Messaging.EventHubs.Primitives;
using Azure.Messaging.EventHubs.Processor;
using Azure.Storage.Blobs;
using Azure.Storage.Blobs.Models;

namespace SensorPipeline.FunctionsHost.Processing;

/// <summary>
/// Ownership and checkpoints as empty blobs with metadata, in the layout the Azure Functions Event Hubs extension
/// (and the SDK's blob checkpoint store, whose class it compiles in) writes, so the blobs are interchangeable with
/// theirs: <c>{namespace}/{hub}/{consumer group}/ownership/{partition}</c> with metadata <c>ownerid</c>, and
/// <c>…/checkpoint/{partition}</c> with <c>offset</c>, <c>sequencenumber</c>, <c>clientidentifier</c>; namespace,
/// hub and group lower-cased. Claims are optimistic: a claim of a known record sets its metadata if its ETag is still
/// the one listed, a first claim creates the blob only if none exists; losing either race means "not claimed".
/// </summary>
public sealed class WebJobsBlobCheckpointStore(BlobContainerClient container) : CheckpointStore
{
    /// <summary>The container the Functions extension keeps ownership and checkpoints in (EventHubOptions.CheckpointContainer).</summary>
    public const string ContainerName = "azure-webjobs-eventhub";

    private static readonly ETag AnyETag = new("*");

    /// <summary>The container's client (the readers of ownership and checkpoints list it).</summary>
    public BlobContainerClient Container => container;

    /// <summary>A partition's checkpoint as stored: the sequence number and offset of the last event processed and
    /// when it was written; null when there is none or it names no sequence number.</summary>
    public async Task<StoredCheckpoint?> ReadCheckpointAsync(string fullyQualifiedNamespace, string eventHubName, string consumerGroup, string partitionId, CancellationToken cancellationToken)
    {
        var blob = container.GetBlobClient(Prefix(fullyQualifiedNamespace, eventHubName, consumerGroup, "checkpoint") + partitionId);
        try
        {
            var properties = (await blob.GetPropertiesAsync(cancellationToken: cancellationToken)).Value;
            return StoredCheckpoint.From(partitionId, properties.Metadata, properties.LastModified);
        }
        catch (RequestFailedException e) when (e.ErrorCode == BlobErrorCode.BlobNotFound)
        {
            return null;
        }
    }

    /// <summary>Every partition's checkpoint of one consumer group, in one listing.</summary>
    public async Task<IReadOnlyList<StoredCheckpoint>> ListCheckpointsAsync(string fullyQualifiedNamespace, string eventHubName, string consumerGroup, CancellationToken cancellationToken)
    {
        var prefix = Prefix(fullyQualifiedNamespace, eventHubName, consumerGroup, "checkpoint");
        var checkpoints = new List<StoredCheckpoint>();
        await foreach (var blob in container.GetBlobsAsync(BlobTraits.Metadata, BlobStates.None, prefix, cancellationToken))
        {
            if (StoredCheckpoint.From(blob.Name[prefix.Length..], blob.Metadata, blob.Properties.LastModified ?? DateTimeOffset.MinValue) is { } checkpoint)
            {
                checkpoints.Add(checkpoint);
            }
        }

        return checkpoints;
    }

    public override async Task<IEnumerable<EventProcessorPartitionOwnership>> ListOwnershipAsync(string fullyQualifiedNamespace, string eventHubName, string consumerGroup, CancellationToken cancellationToken)
    {
        var prefix = Prefix(fullyQualifiedNamespace, eventHubName, consumerGroup, "ownership");
        var owners = new List<EventProcessorPartitionOwnership>();
        await foreach (var blob in container.GetBlobsAsync(BlobTraits.Metadata, BlobStates.None, prefix, cancellationToken))
        {
            owners.Add(new EventProcessorPartitionOwnership
            {
                FullyQualifiedNamespace = fullyQualifiedNamespace,
                EventHubName = eventHubName,
                ConsumerGroup = consumerGroup,
                PartitionId = blob.Name[prefix.Length..],
                OwnerIdentifier = blob.Metadata.TryGetValue(MetadataKeys.OwnerId, out var owner) ? owner : "",
                LastModifiedTime = blob.Properties.LastModified ?? DateTimeOffset.MinValue,
                Version = Unquoted(blob.Properties.ETag),
            });
        }

        return owners;
    }

    public override async Task<IEnumerable<EventProcessorPartitionOwnership>> ClaimOwnershipAsync(IEnumerable<EventProcessorPartitionOwnership> desiredOwnership, CancellationToken cancellationToken)
    {
        var claimed = new List<EventProcessorPartitionOwnership>();
        foreach (var wanted in desiredOwnership)
        {
            var blob = container.GetBlobClient(Prefix(wanted.FullyQualifiedNamespace, wanted.EventHubName, wanted.ConsumerGroup, "ownership") + wanted.PartitionId);
            var metadata = new Dictionary<string, string> { [MetadataKeys.OwnerId] = wanted.OwnerIdentifier };
            try
            {
                var (lastModified, etag) = wanted.Version is { } version
                    ? await SetMetadataIfUnchangedAsync(blob, metadata, version, cancellationToken)
                    : await CreateIfAbsentAsync(blob, metadata, cancellationToken);
                wanted.LastModifiedTime = lastModified;
                wanted.Version = Unquoted(etag);
                claimed.Add(wanted);
            }
            catch (RequestFailedException e) when (e.ErrorCode == BlobErrorCode.ConditionNotMet || e.ErrorCode == BlobErrorCode.BlobAlreadyExists)
            {
                // Another processor changed or created the record since this one listed it: not claimed, no error.
            }
        }

        return claimed;
    }

    public override async Task<EventProcessorCheckpoint?> GetCheckpointAsync(string fullyQualifiedNamespace, string eventHubName, string consumerGroup, string partitionId, CancellationToken cancellationToken)
    {
        var blob = container.GetBlobClient(Prefix(fullyQualifiedNamespace, eventHubName, consumerGroup, "checkpoint") + partitionId);
        IDictionary<string, string> metadata;
        try
        {
            metadata = (await blob.GetPropertiesAsync(cancellationToken: cancellationToken)).Value.Metadata;
        }
        catch (RequestFailedException e) when (e.ErrorCode == BlobErrorCode.BlobNotFound)
        {
            return null;
        }

        return StartingPosition(metadata) is { } position
            ? new EventProcessorCheckpoint
            {
                FullyQualifiedNamespace = fullyQualifiedNamespace,
                EventHubName = eventHubName,
                ConsumerGroup = consumerGroup,
                PartitionId = partitionId,
                StartingPosition = position,
            }
            : null;
    }

    public override async Task UpdateCheckpointAsync(string fullyQualifiedNamespace, string eventHubName, string consumerGroup, string partitionId, string clientIdentifier, CheckpointPosition startingPosition, CancellationToken cancellationToken)
    {
        var blob = container.GetBlobClient(Prefix(fullyQualifiedNamespace, eventHubName, consumerGroup, "checkpoint") + partitionId);
        var metadata = new Dictionary<string, string>
        {
            [MetadataKeys.Offset] = startingPosition.OffsetString ?? "",
            // The SDK's "no sequence number" is long.MinValue; the extension stores it as "" (older readers choke on it).
            [MetadataKeys.SequenceNumber] = startingPosition.SequenceNumber == long.MinValue ? "" : startingPosition.SequenceNumber.ToString(CultureInfo.InvariantCulture),
            [MetadataKeys.ClientIdentifier] = clientIdentifier ?? "",
        };
        try
        {
            await blob.SetMetadataAsync(metadata, cancellationToken: cancellationToken);
        }
        catch (RequestFailedException e) when (e.ErrorCode == BlobErrorCode.BlobNotFound)
        {
            using var empty = new MemoryStream([]);
            await blob.UploadAsync(empty, new BlobUploadOptions { Metadata = metadata }, cancellationToken);
        }
    }

    /// <summary>The offset when there is one (a placeholder "no offset" from older writers is none), else the sequence
    /// number; both exclusive, since a checkpoint names the last event processed.</summary>
    private static EventPosition? StartingPosition(IDictionary<string, string> metadata)
    {
        if (metadata.TryGetValue(MetadataKeys.Offset, out var offset) && offset.Length > 0 && !offset.Equals("no offset", StringComparison.OrdinalIgnoreCase))
        {
            return EventPosition.FromOffset(offset, isInclusive: false);
        }

        return metadata.TryGetValue(MetadataKeys.SequenceNumber, out var text) && long.TryParse(text, NumberStyles.Integer, CultureInfo.InvariantCulture, out var sequence)
            ? EventPosition.FromSequenceNumber(sequence, isInclusive: false)
            : null;
    }

    private static async Task<(DateTimeOffset LastModified, ETag ETag)> SetMetadataIfUnchangedAsync(BlobClient blob, Dictionary<string, string> metadata, string version, CancellationToken cancellationToken)
    {
        var info = (await blob.SetMetadataAsync(metadata, new BlobRequestConditions { IfMatch = new ETag($"\"{version}\"") }, cancellationToken)).Value;
        return (info.LastModified, info.ETag);
    }

    private static async Task<(DateTimeOffset LastModified, ETag ETag)> CreateIfAbsentAsync(BlobClient blob, Dictionary<string, string> metadata, CancellationToken cancellationToken)
    {
        using var empty = new MemoryStream([]);
        var options = new BlobUploadOptions { Metadata = metadata, Conditions = new BlobRequestConditions { IfNoneMatch = AnyETag } };
        var info = (await blob.UploadAsync(empty, options, cancellationToken)).Value;
        return (info.LastModified, info.ETag);
    }

    internal static string Prefix(string fullyQualifiedNamespace, string eventHubName, string consumerGroup, string kind) =>
        $"{fullyQualifiedNamespace.ToLowerInvariant()}/{eventHubName.ToLowerInvariant()}/{consumerGroup.ToLowerInvariant()}/{kind}/";

    private static string? Unquoted(ETag? etag) => etag?.ToString().Trim('"');
}

/// <summary>A checkpoint blob's content: the last event processed on <paramref name="PartitionId"/> and when the
/// blob was written.</summary>
public sealed record StoredCheckpoint(string PartitionId, long SequenceNumber, long Offset, DateTimeOffset LastModified)
{
    internal static StoredCheckpoint? From(string partitionId, IDictionary<string, string> metadata, DateTimeOffset lastModified)
    {
        if (!metadata.TryGetValue(MetadataKeys.SequenceNumber, out var text) || !long.TryParse(text, NumberStyles.Integer, CultureInfo.InvariantCulture, out var sequence))
        {
            return null;
        }

        var offset = metadata.TryGetValue(MetadataKeys.Offset, out var o) && long.TryParse(o, NumberStyles.Integer, CultureInfo.InvariantCulture, out var parsed) ? parsed : -1;
        return new StoredCheckpoint(partitionId, sequence, offset, lastModified);
    }
}

/// <summary>The blob metadata keys of the extension's layout (lower case: Azure Storage metadata names are
/// case-insensitive, and the extension writes them so).</summary>
internal static class MetadataKeys
{
    public const string OwnerId = "ownerid";
    public const string Offset = "offset";
    public const string SequenceNumber = "sequencenumber";
    public const string ClientIdentifier = "clientidentifier";
}
