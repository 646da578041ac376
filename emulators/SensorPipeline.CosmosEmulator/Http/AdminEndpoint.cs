using System.Net;
using SensorPipeline.CosmosEmulator.Documents;
using SensorPipeline.CosmosEmulator.Throttling;
using SensorPipeline.Emulators.Common;

namespace SensorPipeline.CosmosEmulator.Http;

/// <summary>
/// The fault endpoint for chaos runs and tests, loopback only and never a simple cross-site request (POST/PUT with
/// the <c>x-emulator-admin</c> header, a loopback <c>Host</c> and no foreign <c>Origin</c>): <c>POST /_emulator/faults</c>
/// injects a fault (<see cref="FaultRequest"/>), <c>DELETE /_emulator/faults</c> clears it, <c>PUT /_emulator/throughput</c>
/// sets one container's RU/s budget (<see cref="ThroughputRequest"/>), <c>GET /_emulator/charges</c> reads every
/// container's request units by operation since start or the last <c>DELETE /_emulator/charges</c>, and
/// <c>PUT|DELETE /_emulator/disk-full</c> makes every log write fail as on a full disk (ENOSPC, through the log's
/// storage seam) or stops it.
/// </summary>
internal sealed class AdminEndpoint(EmulatorStore store, FaultInjector faults, LogStorage storage, ILogger<GatewayDispatcher> logger)
{
    public async Task AdminAsync(HttpContext context, string[] segments)
    {
        if (AdminRefusal(context) is { } refusal)
        {
            await GatewayResponse.ErrorAsync(context, 403, "Forbidden", refusal);
            return;
        }

        var method = context.Request.Method;
        switch (segments)
        {
            case ["_emulator", "faults"] when HttpMethods.IsPost(method):
                await InjectFaultAsync(context);
                return;
            case ["_emulator", "faults"] when HttpMethods.IsDelete(method):
                faults.Clear();
                await GatewayResponse.EmptyAsync(context, 204, 0);
                return;
            case ["_emulator", "disk-full"] when HttpMethods.IsPut(method) || HttpMethods.IsDelete(method):
                storage.FailWrites = HttpMethods.IsPut(method);
                GatewayLog.DiskFullSet(logger, storage.FailWrites);
                await GatewayResponse.EmptyAsync(context, 204, 0);
                return;
            case ["_emulator", "throughput"] when HttpMethods.IsPut(method):
                await SetThroughputAsync(context);
                return;
            case ["_emulator", "charges"] when HttpMethods.IsGet(method):
                await ChargesAsync(context);
                return;
            case ["_emulator", "charges"] when HttpMethods.IsDelete(method):
                ResetCharges();
                await GatewayResponse.EmptyAsync(context, 204, 0);
                return;
            default:
                await GatewayRequest.NotSupported(context);
                return;
        }
    }

    private static string? AdminRefusal(HttpContext context)
    {
        var remote = context.Connection.RemoteIpAddress;
        if (remote is null || !IPAddress.IsLoopback(remote) || context.Request.Headers[CosmosHeaders.AdminHeader].Count == 0)
        {
            return $"The fault endpoint takes loopback requests carrying the {CosmosHeaders.AdminHeader} header.";
        }

        // A page in the developer's browser: a rebound host name, or another site's Origin.
        return AdminRequestGuard.RejectCrossSite(context.Request);
    }

    private async Task InjectFaultAsync(HttpContext context)
    {
        var fault = JsonSerializer.Deserialize((await GatewayRequest.ReadBodyAsync(context)).Span, GatewayJson.Default.FaultRequest);
        if (fault is null)
        {
            await GatewayResponse.ErrorAsync(context, 400, "BadRequest", "Fault: a body is required.");
            return;
        }

        if (FaultInjector.Validate(fault) is { } problem)
        {
            await GatewayResponse.ErrorAsync(context, 400, "BadRequest", "Fault: " + problem);
            return;
        }

        faults.Inject(fault);
        GatewayLog.FaultInjected(logger, fault.Status, fault.Seconds, fault.WritesOnly, fault.Probability ?? 1);
        await GatewayResponse.EmptyAsync(context, 204, 0);
    }

    private async Task SetThroughputAsync(HttpContext context)
    {
        var budget = JsonSerializer.Deserialize((await GatewayRequest.ReadBodyAsync(context)).Span, GatewayJson.Default.ThroughputRequest);
        if (budget is null || !(budget.RequestUnitsPerSecond is >= 0 and <= 1_000_000))
        {
            await GatewayResponse.ErrorAsync(context, 400, "BadRequest", "Throughput: {\"database\":…,\"container\":…,\"requestUnitsPerSecond\": 0 to 1000000}.");
            return;
        }

        var (_, container) = GatewayRequest.Find(store, budget.Database, budget.Container);
        container.Budget.RequestUnitsPerSecond = budget.RequestUnitsPerSecond;
        GatewayLog.BudgetSet(logger, budget.Database, budget.Container, budget.RequestUnitsPerSecond);
        await GatewayResponse.EmptyAsync(context, 204, 0);
    }

    private void ResetCharges()
    {
        foreach (var database in store.Catalog.Databases)
        {
            foreach (var each in store.Catalog.ContainersOf(database))
            {
                each.Ledger.Reset();
            }
        }
    }

    /// <summary><c>{"containers":[{"database":…,"container":…,"partitionKeyRanges":n,"operations":{"create":{"count":n,"requestUnits":x},…},
    /// "bulk":{"requests":n,"operations":m}}]}</c>; <c>expiry</c> is TTL deletes, taken from the container's throughput in
    /// the background as the service does.</summary>
    private Task ChargesAsync(HttpContext context)
    {
        var buffer = new System.Buffers.ArrayBufferWriter<byte>(1024);
        using (var writer = new Utf8JsonWriter(buffer))
        {
            writer.WriteStartObject();
            writer.WriteStartArray("containers");
            foreach (var database in store.Catalog.Databases)
            {
                foreach (var container in store.Catalog.ContainersOf(database))
                {
                    writer.WriteStartObject();
                    writer.WriteString("database", database.Id);
                    writer.WriteString("container", container.Id);
                    writer.WriteNumber("partitionKeyRanges", container.Ranges.Count);
                    writer.WritePropertyName("operations");
                    container.Ledger.Write(writer);
                    writer.WritePropertyName("bulk");
                    container.Ledger.WriteBulk(writer);
                    writer.WriteEndObject();
                }
            }

            writer.WriteEndArray();
            writer.WriteEndObject();
        }

        return GatewayResponse.JsonAsync(context, 200, buffer.WrittenMemory, 0);
    }
}
