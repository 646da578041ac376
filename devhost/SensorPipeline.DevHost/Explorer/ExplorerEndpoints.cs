using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Options;
using SensorPipeline.EventHubs;
using SensorPipeline.FunctionsHost.Status;

namespace SensorPipeline.DevHost.Explorer;

/// <summary>The explorer beside <c>/dashboard</c>: the page <c>/explorer</c> and its API under <c>/explorer/api</c>.
/// Every route refuses a request from another site (<see cref="ExplorerSession.RejectRead"/>); those that change state
/// also need the session token (<see cref="ExplorerSession.RejectAction"/>).</summary>
public static class ExplorerEndpoints
{
    /// <summary>The page's route.</summary>
    public const string PagePath = "/explorer";

    private static readonly Lazy<byte[]> Page = new(() => EmbeddedFile.Read(typeof(ExplorerEndpoints).Assembly, "explorer.html"));

    public static IHostApplicationBuilder AddExplorer(this IHostApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        builder.Services.AddOptions<ExplorerOptions>().BindConfiguration(ExplorerOptions.SectionName).ValidateOnStart();
        builder.Services.TryAddEnumerable(ServiceDescriptor.Singleton<IValidateOptions<ExplorerOptions>, ExplorerOptionsValidator>());
        builder.Services.TryAddSingleton(TimeProvider.System);
        builder.Services.TryAddSingleton<ExplorerSession>();
        builder.Services.TryAddSingleton<BoundedPeek>();
        builder.Services.TryAddSingleton<BoundedQuery>();
        builder.Services.TryAddSingleton<ExplorerCosmos>();
        builder.Services.TryAddSingleton<ExplorerSample>();
        return builder;
    }

    public static IEndpointRouteBuilder MapExplorerEndpoints(this IEndpointRouteBuilder app)
    {
        ArgumentNullException.ThrowIfNull(app);
        var reads = app.MapGroup(PagePath).AddEndpointFilter(ReadFilter);
        reads.MapGet("", () => Results.Bytes(Page.Value, "text/html; charset=utf-8")).WithName("GetExplorer")
            .WithSummary("The explorer: hubs, events, documents, devices on a map, dead letters.");
        reads.MapGet("/assets/{name}", (string name) => ExplorerAssets.Get(name));
        reads.MapGet("/api/session", (ExplorerSession session) => TypedResults.Ok(new
        {
            token = session.Token,
            sample = new { minReadings = ExplorerSample.MinReadings, maxReadings = ExplorerSample.MaxReadings },
        }));
        reads.MapGet("/api/hubs", (HttpContext context, EventHubsNamespace hubs, IServiceProvider services) =>
            ExplorerResults.JsonAsync(context, writer => HubsOverview.Write(writer, hubs, services.GetService<FunctionsHostState>()?.Snapshot())));
        reads.MapGet("/api/hubs/{hub}/partitions/{partition}/events", ExplorerPeekEndpoint.ReadAsync);
        // The routes that read the Cosmos DB account answer 503 without one (the outer group's guard runs first).
        var cosmosReads = reads.MapGroup("/api").AddEndpointFilter(ExplorerCosmos.RequireAccount);
        cosmosReads.MapGet("/cosmos/containers", ExplorerCosmosEndpoints.ContainersAsync);
        cosmosReads.MapGet("/cosmos/containers/{container}/query", ExplorerCosmosEndpoints.QueryAsync);
        cosmosReads.MapGet("/cosmos/containers/{container}/items/{id}", ExplorerCosmosEndpoints.ReadItemAsync);
        cosmosReads.MapGet("/devices", ExplorerDeviceEndpoints.ListAsync);
        cosmosReads.MapGet("/devices/{id}", ExplorerDeviceEndpoints.DeviceAsync);
        cosmosReads.MapGet("/deadletters", ExplorerDeadLetterEndpoints.ListAsync);
        var actions = app.MapGroup(PagePath + "/api").AddEndpointFilter(ActionFilter);
        actions.MapPost("/hubs/{hub}/send", ExplorerSendEndpoint.SendAsync);
        actions.MapGroup("/deadletters").AddEndpointFilter(ExplorerCosmos.RequireAccount)
            .MapPost("/redrive", ExplorerDeadLetterEndpoints.RedriveAsync);
        return app;
    }

    private static async ValueTask<object?> ReadFilter(EndpointFilterInvocationContext context, EndpointFilterDelegate next) =>
        ExplorerSession.RejectRead(context.HttpContext.Request) is { } reason ? Forbidden(reason) : await next(context);

    private static async ValueTask<object?> ActionFilter(EndpointFilterInvocationContext context, EndpointFilterDelegate next) =>
        context.HttpContext.RequestServices.GetRequiredService<ExplorerSession>().RejectAction(context.HttpContext.Request) is { } reason
            ? Forbidden(reason) : await next(context);

    private static IResult Forbidden(string reason) =>
        Results.Problem(statusCode: StatusCodes.Status403Forbidden, title: "Forbidden", detail: reason);
}
