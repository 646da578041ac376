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

    private static readonly Lazy<byte[]> Page = new(LoadPage);

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
        return builder;
    }

    public static IEndpointRouteBuilder MapExplorerEndpoints(this IEndpointRouteBuilder app)
    {
        ArgumentNullException.ThrowIfNull(app);
        var reads = app.MapGroup(PagePath).AddEndpointFilter(ReadFilter);
        reads.MapGet("", () => Results.Bytes(Page.Value, "text/html; charset=utf-8")).WithName("GetExplorer")
            .WithSummary("The explorer: hubs, events, documents, devices on a map, dead letters.");
        reads.MapGet("/assets/{name}", (string name) => ExplorerAssets.Get(name));
        reads.MapGet("/api/session", (ExplorerSession session) => TypedResults.Ok(new { token = session.Token }));
        reads.MapGet("/api/hubs", (HttpContext context, EventHubsNamespace hubs, IServiceProvider services) =>
            ExplorerResults.JsonAsync(context, writer => HubsOverview.Write(writer, hubs, services.GetService<FunctionsHostState>()?.Snapshot())));
        reads.MapGet("/api/hubs/{hub}/partitions/{partition}/events", ExplorerPeekEndpoint.ReadAsync);
        reads.MapGet("/api/cosmos/containers", ExplorerCosmosEndpoints.ContainersAsync);
        reads.MapGet("/api/cosmos/containers/{container}/query", ExplorerCosmosEndpoints.QueryAsync);
        reads.MapGet("/api/cosmos/containers/{container}/items/{id}", ExplorerCosmosEndpoints.ReadItemAsync);
        reads.MapGet("/api/devices", ExplorerDeviceEndpoints.ListAsync);
        reads.MapGet("/api/devices/{id}", ExplorerDeviceEndpoints.DeviceAsync);
        reads.MapGet("/api/deadletters", ExplorerDeadLetterEndpoints.ListAsync);
        var actions = app.MapGroup(PagePath + "/api").AddEndpointFilter(ActionFilter);
        actions.MapPost("/hubs/{hub}/send", ExplorerSendEndpoint.SendAsync);
        actions.MapPost("/deadletters/redrive", ExplorerDeadLetterEndpoints.RedriveAsync);
        return app;
    }

    private static async ValueTask<object?> ReadFilter(EndpointFilterInvocationContext context, EndpointFilterDelegate next) =>
        ExplorerSession.RejectRead(context.HttpContext.Request) is { } reason ? Forbidden(reason) : await next(context);

    private static async ValueTask<object?> ActionFilter(EndpointFilterInvocationContext context, EndpointFilterDelegate next) =>
        context.HttpContext.RequestServices.GetRequiredService<ExplorerSession>().RejectAction(context.HttpContext.Request) is { } reason
            ? Forbidden(reason) : await next(context);

    private static IResult Forbidden(string reason) =>
        Results.Problem(statusCode: StatusCodes.Status403Forbidden, title: "Forbidden", detail: reason);

    private static byte[] LoadPage()
    {
        using var stream = typeof(ExplorerEndpoints).Assembly.GetManifestResourceStream("explorer.html")
            ?? throw new InvalidOperationException("explorer.html is not embedded in SensorPipeline.DevHost");
        using var copy = new MemoryStream();
        stream.CopyTo(copy);
        return copy.ToArray();
    }
}
