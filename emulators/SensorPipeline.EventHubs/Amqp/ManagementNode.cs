using Microsoft.Azure.Amqp;
using Microsoft.Azure.Amqp.Encoding;
using SensorPipeline.EventHubs.Http;

namespace SensorPipeline.EventHubs.Amqp;

/// <summary><c>$management</c> READ of hub and partition properties. The SAS token travels in the request's
/// <c>security_token</c> application property (no put-token); any right covering the hub may read. Answers a map whose
/// values have the types the SDKs cast to: <c>partition_ids</c> an AMQP array of string, sequence numbers long,
/// <c>last_enqueued_offset</c> a string, times timestamps.</summary>
internal sealed class ManagementNode(EventHubsNamespace eventHubs, SasVerifier sas, TimeProvider time) : RequestNode
{
    public const string Address = "$management";

    protected override AmqpMessage Answer(AmqpMessage request, ConnectionState state)
    {
        var operation = Text(request, "operation");
        var type = Text(request, "type");
        var hub = Text(request, "name");
        if (operation != "READ" || hub is null)
        {
            return Reply(400, $"The $management node serves operation READ with a 'name', not '{operation}'.", condition: "com.microsoft:argument-error");
        }

        if (sas.Check(Text(request, "security_token"), hub, SasRights.Send | SasRights.Listen | SasRights.Manage, time.GetUtcNow()) is { } denied)
        {
            return Reply(401, denied, condition: AmqpErrorCode.UnauthorizedAccess.Value);
        }

        try
        {
            return type switch
            {
                "com.microsoft:eventhub" => Reply(200, "OK", HubMap(hub)),
                "com.microsoft:partition" => Reply(200, "OK", PartitionMap(hub, Text(request, "partition") ?? throw new FormatException("A partition READ needs 'partition'."))),
                _ => Reply(400, $"Unknown READ type '{type}'.", condition: "com.microsoft:argument-error"),
            };
        }
        catch (EventHubNotFoundException e)
        {
            return Reply(404, NotFound.Text(e), condition: AmqpErrorCode.NotFound.Value);
        }
        catch (PartitionNotFoundException e)
        {
            return Reply(400, UnknownPartition.Text(e), condition: UnknownPartition.Condition);
        }
    }

    private AmqpMap HubMap(string hub)
    {
        var description = eventHubs.GetHubDescription(hub);
        return new AmqpMap
        {
            [new MapKey("name")] = description.Name,
            [new MapKey("created_at")] = DateTime.UnixEpoch,
            [new MapKey("partition_count")] = description.PartitionCount,
            [new MapKey("partition_ids")] = description.PartitionIds.ToArray(),
        };
    }

    private AmqpMap PartitionMap(string hub, string partitionId)
    {
        var p = eventHubs.GetPartitionProperties(hub, partitionId);
        return new AmqpMap
        {
            [new MapKey("name")] = p.Hub,
            [new MapKey("partition")] = p.PartitionId,
            [new MapKey("begin_sequence_number")] = p.BeginningSequenceNumber,
            [new MapKey("last_enqueued_sequence_number")] = p.LastEnqueuedSequenceNumber,
            [new MapKey("last_enqueued_offset")] = p.LastEnqueuedOffset.ToString(System.Globalization.CultureInfo.InvariantCulture),
            [new MapKey("last_enqueued_time_utc")] = p.LastEnqueuedSequenceNumber < 0 ? DateTime.UnixEpoch : p.LastEnqueuedTime.UtcDateTime,
            [new MapKey("is_partition_empty")] = p.IsEmpty,
        };
    }
}
