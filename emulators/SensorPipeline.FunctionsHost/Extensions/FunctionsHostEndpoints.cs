using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using SensorPipeline.Emulators.Common;
using SensorPipeline.FunctionsHost.Status;

namespace Microsoft.AspNetCore.Builder;

/// <summary>The local Functions host's REST surface: status and pause/resume (devhost/SensorPipeline.DevHost/SensorPipeline.DevHost.http has examples).
/// Pause and resume need a loopback Host and <c>X-DevHost-Admin: 1</c> (<see cref="AdminRequestGuard"/>), so no web
/// page can pause processing.</summary>
public static class FunctionsHostEndpoints
{
    public static IEndpointRouteBuilder MapFunctionsHostEndpoints(this IEndpointRouteBuilder app)
    {
        ArgumentNullException.ThrowIfNull(app);
        app.MapGet("/status/functions", (FunctionsHostState state) => TypedResults.Ok(state.Snapshot()))
            .WithName("GetFunctionsStatus")
            .WithSummary("Per function: invocations ok/failed/retried, paused, and per partition the checkpoint and lag.");
        app.MapGet("/status/functions/ownership", GetOwnership)
            .WithName("GetFunctionsOwnership")
            .WithSummary("Per function, from the observing devhost's bounded history: instances, owner changes and the owner of each partition, now and per bin: ?window=<seconds, default 900>&bin=<seconds, default 5>.");
        app.MapPost("/admin/functions/{name}/pause", (string name, FunctionsHostState state) => SetPaused(state, name, paused: true))
            .AddEndpointFilter(AdminRequestGuard.Filter)
            .WithName("PauseFunction")
            .WithSummary("Stops one function's listeners between batches; events accumulate as lag.");
        app.MapPost("/admin/functions/{name}/resume", (string name, FunctionsHostState state) => SetPaused(state, name, paused: false))
            .AddEndpointFilter(AdminRequestGuard.Filter)
            .WithName("ResumeFunction")
            .WithSummary("Lets a paused function's listeners continue from where they stopped.");
        return app;
    }

    private static IResult GetOwnership(FunctionsHostState state, double? window, double? bin)
    {
        var maxWindow = OwnershipHistory.Window.TotalSeconds;
        if (window is { } w && (w < 1 || w > maxWindow))
        {
            return TypedResults.BadRequest(new { error = $"window must be from 1 to {maxWindow} seconds, found {w}" });
        }

        if (bin is { } b && (b < 0.1 || b > 3600))
        {
            return TypedResults.BadRequest(new { error = $"bin must be from 0.1 to 3600 seconds, found {b}" });
        }

        return TypedResults.Ok(state.Timeline(TimeSpan.FromSeconds(window ?? 900), TimeSpan.FromSeconds(bin ?? 5)));
    }

    private static IResult SetPaused(FunctionsHostState state, string name, bool paused) =>
        state.SetPaused(name, paused)
            ? TypedResults.Ok(new { function = name, paused })
            : TypedResults.NotFound(new { error = $"no function '{name}' runs in this devhost" });
}
