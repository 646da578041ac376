using System.Text.Json;
using Microsoft.Azure.Cosmos;
using Microsoft.Extensions.Options;
using SensorPipeline.EventHubs;
using SensorPipeline.Core.Readings;
using SensorPipeline.Redrive;

namespace SensorPipeline.DevHost.Explorer;

/// <summary>The dead-letters page's API: <c>GET /explorer/api/deadletters</c> (a bounded read, grouped by reason, each
/// letter decoded) and the action <c>POST /explorer/api/deadletters/redrive</c> with <c>{"ids": [...], "dryRun": true,
/// "again": false}</c>, which runs loadgen's own <see cref="DeadLetterRedriver"/> (selection, routing, the mark on the
/// document) with devhost's hubs as the destination.</summary>
public static class ExplorerDeadLetterEndpoints
{
    /// <summary>The request body of a re-drive.</summary>
    public sealed record RedriveRequest(IReadOnlyList<string>? Ids, bool DryRun = true, bool Again = false);

    public static async Task ListAsync(HttpContext context, ExplorerCosmos cosmos, BoundedQuery runner, IOptions<ExplorerOptions> options)
    {
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(cosmos);
        ArgumentNullException.ThrowIfNull(runner);
        ArgumentNullException.ThrowIfNull(options);
        var result = await runner.RunAsync(cosmos.Container(cosmos.DeadLettersContainer), new QueryDefinition("SELECT * FROM c"), null, options.Value, context.RequestAborted);
        await ExplorerResults.JsonAsync(context, writer =>
        {
            writer.WriteStartObject();
            BoundedQuery.WriteSummary(writer, result, options.Value);
            DeadLetterJson.WriteGrouped(writer, result.Rows);
            writer.WriteEndObject();
        });
    }

    public static async Task RedriveAsync(HttpContext context, RedriveRequest request, ExplorerCosmos cosmos, EventHubsNamespace hubs, IConfiguration configuration, TimeProvider time, IOptions<ExplorerOptions> options)
    {
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(request);
        ArgumentNullException.ThrowIfNull(cosmos);
        ArgumentNullException.ThrowIfNull(hubs);
        ArgumentNullException.ThrowIfNull(configuration);
        ArgumentNullException.ThrowIfNull(options);
        var ids = request.Ids ?? [];
        if (ids.Count == 0 || ids.Count > options.Value.MaxQueryItems)
        {
            await ExplorerResults.ProblemAsync(context, StatusCodes.Status400BadRequest, $"Select from 1 to {options.Value.MaxQueryItems} dead letters by id.");
            return;
        }

        var selection = new RedriveSelection
        {
            Ids = ids, DryRun = request.DryRun, Again = request.Again,
            IngestionHub = configuration["IngestionHubName"] ?? "ingestion",
            KindHubs = SensorKindCatalog.Default.All.ToDictionary(static k => k.Name, k => configuration[k.HubSetting] ?? k.Hub, StringComparer.Ordinal),
        };
        RedriveSend SendTo(RedriveHub hub) => async (body, ct) =>
        {
            try
            {
                await hubs.AppendAsync(selection.HubName(hub), null, [new EventToAppend(body, null, null)], ct);
                return null;
            }
            catch (Exception e) when (e is EventHubNotFoundException or EventTooLargeException or PartitionUnavailableException)
            {
                return "(" + e.GetType().Name + "): " + e.Message;
            }
        };

        IReadOnlyList<RedriveLine> lines;
        try
        {
            lines = await new DeadLetterRedriver(cosmos.Container(cosmos.DeadLettersContainer), SendTo, selection, time).RunAsync(context.RequestAborted);
        }
        catch (RedriveException e)
        {
            await ExplorerResults.ProblemAsync(context, StatusCodes.Status404NotFound, e.Message);
            return;
        }

        await ExplorerResults.JsonAsync(context, writer => WriteLines(writer, request.DryRun, lines));
    }

    private static void WriteLines(Utf8JsonWriter writer, bool dryRun, IReadOnlyList<RedriveLine> lines)
    {
        writer.WriteStartObject();
        writer.WriteBoolean("dryRun", dryRun);
        foreach (var action in Enum.GetValues<RedriveAction>())
        {
            writer.WriteNumber(JsonNamingPolicy.CamelCase.ConvertName(action.ToString()), lines.Count(l => l.Action == action));
        }

        writer.WriteStartArray("lines");
        foreach (var line in lines)
        {
            writer.WriteStartObject();
            writer.WriteString("id", line.Id);
            writer.WriteString("reason", line.Reason);
            writer.WriteString("action", JsonNamingPolicy.CamelCase.ConvertName(line.Action.ToString()));
            writer.WriteString("detail", line.Detail);
            writer.WriteEndObject();
        }

        writer.WriteEndArray();
        writer.WriteEndObject();
    }
}
