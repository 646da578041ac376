using System.Text.Json;
using Microsoft.Azure.Cosmos;
using Microsoft.Extensions.Options;

namespace SensorPipeline.DevHost.Explorer;

/// <summary>The devices map's API: <c>GET /explorer/api/devices</c> (each device's latest state from <c>devices</c>:
/// place, kind, observed time; with the server's now and the pipeline's max age for colouring by freshness) and
/// <c>GET /explorer/api/devices/{id}</c> (its newest readings and its dead letters). Bounded queries.</summary>
public static class ExplorerDeviceEndpoints
{
    /// <summary>Newest readings shown for one device.</summary>
    public const int NewestReadings = 10;

    public static async Task ListAsync(HttpContext context, ExplorerCosmos cosmos, BoundedQuery runner, IOptions<ExplorerOptions> options, IConfiguration configuration, TimeProvider time)
    {
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(cosmos);
        ArgumentNullException.ThrowIfNull(runner);
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(configuration);
        ArgumentNullException.ThrowIfNull(time);
        var query = new QueryDefinition("SELECT c.id, c.geometry, c.properties.kind, c.properties.observedAt FROM c WHERE c.type = 'Feature'");
        var result = await runner.RunAsync(cosmos.Container(cosmos.DevicesContainer), query, null, options.Value, context.RequestAborted);
        var maxAge = TimeSpan.TryParse(configuration["Pipeline:MaxAge"], System.Globalization.CultureInfo.InvariantCulture, out var age) ? age : TimeSpan.FromMinutes(5);
        await ExplorerResults.JsonAsync(context, writer =>
        {
            writer.WriteStartObject();
            writer.WriteString("now", time.GetUtcNow());
            writer.WriteNumber("maxAgeSeconds", maxAge.TotalSeconds);
            BoundedQuery.WriteSummary(writer, result, options.Value);
            writer.WriteStartArray("devices");
            foreach (var row in result.Rows)
            {
                row.WriteTo(writer);
            }

            writer.WriteEndArray();
            writer.WriteEndObject();
        });
    }

    public static async Task DeviceAsync(HttpContext context, string id, ExplorerCosmos cosmos, BoundedQuery runner, IOptions<ExplorerOptions> options)
    {
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(cosmos);
        ArgumentNullException.ThrowIfNull(runner);
        ArgumentNullException.ThrowIfNull(options);
        var byDevice = new QueryDefinition("SELECT * FROM c WHERE c.deviceId = @device").WithParameter("@device", id);
        var readings = await runner.RunAsync(cosmos.Container(cosmos.ReadingsContainer), byDevice, new PartitionKey(id), options.Value, context.RequestAborted);
        var letters = await runner.RunAsync(cosmos.Container(cosmos.DeadLettersContainer), byDevice, null, options.Value, context.RequestAborted);
        var newest = readings.Rows.OrderByDescending(ObservedAt, StringComparer.Ordinal).Take(NewestReadings);
        await ExplorerResults.JsonAsync(context, writer =>
        {
            writer.WriteStartObject();
            writer.WriteString("deviceId", id);
            writer.WriteNumber("requestCharge", Math.Round(readings.RequestCharge + letters.RequestCharge, 2));
            writer.WriteStartArray("readings");
            foreach (var row in newest)
            {
                row.WriteTo(writer);
            }

            writer.WriteEndArray();
            writer.WriteStartArray("deadLetters");
            foreach (var letter in letters.Rows)
            {
                DeadLetterJson.Write(writer, letter);
            }

            writer.WriteEndArray();
            writer.WriteEndObject();
        });
    }

    /// <summary>ISO 8601 UTC times of one format sort as text.</summary>
    private static string ObservedAt(JsonElement reading) =>
        reading.TryGetProperty("properties", out var p) && p.TryGetProperty("observedAt", out var t) ? t.GetString() ?? "" : "";
}
