using System.Buffers;
using System.Globalization;
using SensorPipeline.CosmosEmulator.Documents;

namespace SensorPipeline.CosmosEmulator.Http;

/// <summary><c>/dbs/{db}/colls/{coll}/pkranges</c>, and the check every document, query and batch request that
/// addresses a range goes through.</summary>
internal sealed class PartitionKeyRangesEndpoint(EmulatorStore store)
{
    /// <summary>The container's partition key ranges (<c>Cosmos:PartitionKeyRanges</c> of them, see
    /// <see cref="Partitioning.PartitionKeyRanges"/>). They never split, so their ETag names their count and a client
    /// reading them as a change feed gets 304 once it holds them.</summary>
    public async Task PartitionKeyRangesAsync(HttpContext context, string db, string coll)
    {
        var (_, container) = GatewayRequest.Find(store, db, coll);
        var ranges = container.Ranges;
        var etag = string.Create(CultureInfo.InvariantCulture, $"\"pkranges-{ranges.Count}\"");
        if (context.Request.Headers.IfNoneMatch.ToString() == etag)
        {
            await GatewayResponse.EmptyAsync(context, 304, 1, etag);
            return;
        }

        var items = new List<byte[]>(ranges.Count);
        for (var i = 0; i < ranges.Count; i++)
        {
            var buffer = new ArrayBufferWriter<byte>(512);
            var rid = ResourceIds.PartitionKeyRange(container.Rid, i);
            using (var writer = new Utf8JsonWriter(buffer))
            {
                writer.WriteStartObject();
                writer.WriteString("_rid", rid);
                writer.WriteString("id", i.ToString(CultureInfo.InvariantCulture));
                writer.WriteString("_etag", etag);
                writer.WriteString("minInclusive", ranges.MinInclusive(i));
                writer.WriteString("maxExclusive", ranges.MaxExclusive(i));
                writer.WriteNumber("ridPrefix", i);
                writer.WriteString("_self", $"{container.SelfLink}pkranges/{rid}/");
                writer.WriteNumber("throughputFraction", 1.0 / ranges.Count);
                writer.WriteString("status", "online");
                writer.WriteStartArray("parents");
                writer.WriteEndArray();
                writer.WriteNumber("_ts", store.Now);
                writer.WriteNumber("_lsn", 1);
                writer.WriteEndObject();
            }

            items.Add(buffer.WrittenSpan.ToArray());
        }

        context.Response.Headers.ETag = etag;
        await GatewayResponse.FeedAsync(context, container.Rid, "PartitionKeyRanges", items, 1, null);
    }

    /// <summary>The range a request addresses with <c>x-ms-documentdb-partitionkeyrangeid</c> (null when it names none):
    /// 410 with sub-status 1002 (the service's "partition key range gone") for a range the container does not have,
    /// and 400 when the request's partition key belongs to another range — an SDK whose hash differs from the
    /// emulator's fails loudly instead of reading the wrong documents.</summary>
    public static int? AddressedRange(HttpRequest request, ContainerState container, string? partitionKey)
    {
        var header = request.Headers[CosmosHeaders.PartitionKeyRangeId].ToString();
        if (header.Length == 0)
        {
            return null;
        }

        if (!container.Ranges.TryParse(header, out var range))
        {
            throw new StoreException(410, "Gone", $"Partition key range '{header}' does not exist in container '{container.Id}' ({container.Ranges.Count} ranges).", 1002);
        }

        CheckInRange(container, partitionKey, range);
        return range;
    }

    /// <summary>400 when <paramref name="partitionKey"/> (if any) is not in <paramref name="range"/>.</summary>
    public static void CheckInRange(ContainerState container, string? partitionKey, int range)
    {
        if (partitionKey is not null && container.RangeOfKey(partitionKey) is var actual && actual != range)
        {
            throw new StoreException(400, "BadRequest",
                $"Partition key {partitionKey} belongs to partition key range {actual}, not to range {range} the request addresses ({container.Ranges.Count} ranges).");
        }
    }
}
