using System.Globalization;
using SensorPipeline.EventHubs;

namespace SensorPipeline.DevHost.Instances;

/// <summary>The devhost-internal hub API that separate Functions-host instances read and write through (Event Hubs
/// has no REST receive; an AMQP endpoint may replace this later). Loopback only, and every route needs
/// <c>X-DevHost-Admin: 1</c> (<see cref="AdminRequestGuard"/>): event bodies are data.
/// <list type="bullet">
/// <item><c>GET /internal/hubs</c>: the hubs (name, partition count, consumer groups, retention) as JSON.</item>
/// <item><c>GET /internal/hubs/{hub}/partitions/{id}/events?from=N&amp;min=M&amp;max=M&amp;waitMs=T</c>: a long-polling
/// read with the listener's semantics (wait until min events or T ms, at most max), answered as
/// <see cref="EventFrames"/>.</item>
/// <item><c>GET /internal/bounds</c>: every partition's [beginning, last enqueued] per hub, JSON.</item>
/// <item><c>POST /internal/hubs/{hub}/events</c>: appends an output binding's batch (<see cref="EventFrames.WriteBodies"/>)
/// to one partition chosen round-robin, as the service does for the collector's batch; 204 once durable.</item>
/// </list></summary>
public static class InternalEndpoints
{
    private const int MaxEventsPerRead = 10_000;
    private const int MaxAppendBytes = 64 * 1024 * 1024;
    private static readonly TimeSpan MaxWait = TimeSpan.FromMinutes(1);

    public static IEndpointRouteBuilder MapInternalHubEndpoints(this IEndpointRouteBuilder app)
    {
        ArgumentNullException.ThrowIfNull(app);
        var group = app.MapGroup("/internal").AddEndpointFilter(AdminRequestGuard.Filter);
        group.MapGet("/hubs", (IEventHubsGateway gateway) => TypedResults.Ok(gateway.Hubs.Select(h =>
            new HubDescription(h.Name, h.PartitionCount, h.ConsumerGroups, h.RetentionPeriod?.TotalSeconds))));
        group.MapGet("/bounds", (EventHubsNamespace ns) => TypedResults.Ok(ns.Hubs.ToDictionary(h => h.Name, h =>
            Enumerable.Range(0, h.PartitionCount).Select(p =>
            {
                var properties = ns.GetPartitionProperties(h.Name, p.ToString(CultureInfo.InvariantCulture));
                return new[] { properties.BeginningSequenceNumber, properties.LastEnqueuedSequenceNumber };
            }).ToArray())));
        group.MapGet("/hubs/{hub}/partitions/{partitionId}/events", ReadAsync);
        group.MapPost("/hubs/{hub}/events", AppendAsync);
        return app;
    }

    private static async Task ReadAsync(HttpContext context, string hub, string partitionId, EventHubsNamespace ns)
    {
        var query = context.Request.Query;
        if (!long.TryParse(query["from"], NumberStyles.None, CultureInfo.InvariantCulture, out var from)
            || !int.TryParse(query["min"], NumberStyles.None, CultureInfo.InvariantCulture, out var min)
            || !int.TryParse(query["max"], NumberStyles.None, CultureInfo.InvariantCulture, out var max) || max is < 1 or > MaxEventsPerRead
            || !int.TryParse(query["waitMs"], NumberStyles.None, CultureInfo.InvariantCulture, out var waitMs))
        {
            context.Response.StatusCode = StatusCodes.Status400BadRequest;
            await context.Response.WriteAsync($"from (≥ 0), min (≥ 0), max (1 to {MaxEventsPerRead}) and waitMs (≥ 0) are required", context.RequestAborted);
            return;
        }

        IReadOnlyList<StoredEvent> events;
        try
        {
            var wait = TimeSpan.FromMilliseconds(Math.Min(waitMs, MaxWait.TotalMilliseconds));
            events = await ns.ReadAsync(hub, partitionId, from, min, max, wait, context.RequestAborted);
        }
        catch (Exception e) when (e is EventHubNotFoundException or PartitionNotFoundException)
        {
            context.Response.StatusCode = StatusCodes.Status404NotFound;
            await context.Response.WriteAsync(e.Message, context.RequestAborted);
            return;
        }

        var bounds = ns.GetPartitionProperties(hub, partitionId);
        context.Response.ContentType = EventFrames.ContentType;
        EventFrames.Write(context.Response.BodyWriter, bounds.BeginningSequenceNumber, bounds.LastEnqueuedSequenceNumber, events);
        await context.Response.BodyWriter.FlushAsync(context.RequestAborted);
    }

    private static async Task<IResult> AppendAsync(HttpContext context, string hub, IEventHubsGateway gateway)
    {
        if (context.Request.ContentLength is not { } length || length > MaxAppendBytes)
        {
            return TypedResults.BadRequest($"Content-Length is required and at most {MaxAppendBytes} bytes");
        }

        var body = new byte[length];
        await context.Request.Body.ReadExactlyAsync(body, context.RequestAborted);
        List<ReadOnlyMemory<byte>> bodies;
        try
        {
            bodies = EventFrames.ReadBodies(body);
        }
        catch (InvalidDataException e)
        {
            return TypedResults.BadRequest(e.Message);
        }

        try
        {
            await gateway.AppendAsync(hub, bodies, context.RequestAborted);
        }
        catch (EventHubNotFoundException e)
        {
            return TypedResults.NotFound(e.Message);
        }

        return TypedResults.NoContent();
    }
}

/// <summary>One hub as <c>GET /internal/hubs</c> describes it.</summary>
public sealed record HubDescription(string Name, int PartitionCount, IReadOnlyList<string> ConsumerGroups, double? RetentionSeconds);
