using System.Globalization;
using SensorPipeline.EventHubs;

namespace SensorPipeline.DevHost.Explorer;

/// <summary><c>POST /explorer/api/hubs/{hub}/send?partition=P&amp;sample=N</c>: appends one event to a hub (a partition
/// when given, else round-robin) — a sample batch of N readings of the simulated devices (<see cref="ExplorerSample"/>), or
/// the request body as it is (an uploaded file, at most Event Hubs' 1 MiB). An action: the caller passed
/// <see cref="ExplorerSession.RejectAction"/>.</summary>
public static class ExplorerSendEndpoint
{
    /// <summary>Event Hubs' largest event.</summary>
    public const int MaxBodyBytes = 1024 * 1024;

    public static async Task SendAsync(HttpContext context, string hub, EventHubsNamespace hubs, ExplorerSample sample, TimeProvider time)
    {
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(hubs);
        ArgumentNullException.ThrowIfNull(sample);
        ArgumentNullException.ThrowIfNull(time);
        var query = context.Request.Query;
        var partition = query["partition"].ToString() is { Length: > 0 } p ? p : null;
        byte[] body;
        if (query["sample"].ToString() is { Length: > 0 } sampleText)
        {
            if (!int.TryParse(sampleText, NumberStyles.None, CultureInfo.InvariantCulture, out var readings)
                || readings < ExplorerSample.MinReadings || readings > ExplorerSample.MaxReadings)
            {
                await ExplorerResults.ProblemAsync(context, StatusCodes.Status400BadRequest,
                    $"'sample' must be from {ExplorerSample.MinReadings} (one reading per sensor kind) to {ExplorerSample.MaxReadings} readings.");
                return;
            }

            body = sample.Next(readings, time.GetUtcNow());
        }
        else if (await ReadBodyAsync(context) is { } uploaded)
        {
            body = uploaded;
        }
        else
        {
            await ExplorerResults.ProblemAsync(context, StatusCodes.Status413PayloadTooLarge, $"An event is at most {MaxBodyBytes} bytes.");
            return;
        }

        if (body.Length == 0)
        {
            await ExplorerResults.ProblemAsync(context, StatusCodes.Status400BadRequest, "Send a file (the request body) or ?sample=N.");
            return;
        }

        await AppendAsync(context, hubs, hub, partition, body);
    }

    private static async Task AppendAsync(HttpContext context, EventHubsNamespace hubs, string hub, string? partition, byte[] body)
    {
        try
        {
            var properties = new Dictionary<string, object?> { ["sentBy"] = "explorer" };
            var result = await hubs.AppendAsync(hub, partition, [new EventToAppend(body, null, properties)], context.RequestAborted);
            await ExplorerResults.JsonAsync(context, writer =>
            {
                writer.WriteStartObject();
                writer.WriteString("hub", hub);
                writer.WriteString("partitionId", result.PartitionId);
                writer.WriteNumber("sequenceNumber", result.FirstSequenceNumber);
                writer.WriteNumber("bytes", body.Length);
                writer.WriteEndObject();
            });
        }
        catch (Exception e) when (e is EventHubNotFoundException or PartitionNotFoundException)
        {
            await ExplorerResults.ProblemAsync(context, StatusCodes.Status404NotFound, e.Message);
        }
        catch (EventTooLargeException e)
        {
            await ExplorerResults.ProblemAsync(context, StatusCodes.Status413PayloadTooLarge, e.Message);
        }
    }

    /// <summary>The body, or null when it is past <see cref="MaxBodyBytes"/>.</summary>
    private static async Task<byte[]?> ReadBodyAsync(HttpContext context)
    {
        if (context.Request.ContentLength > MaxBodyBytes)
        {
            return null;
        }

        using var buffer = new MemoryStream();
        var chunk = new byte[81920];
        int read;
        while ((read = await context.Request.Body.ReadAsync(chunk, context.RequestAborted)) > 0)
        {
            if (buffer.Length + read > MaxBodyBytes)
            {
                return null;
            }

            buffer.Write(chunk, 0, read);
        }

        return buffer.ToArray();
    }
}
