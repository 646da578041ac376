using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using SensorPipeline.Functions.Functions;
using SensorPipeline.Functions.Invocation;
using SensorPipeline.Functions.Storage;
using SensorPipeline.Functions.Telemetry;

namespace SensorPipeline.Functions.Endpoints;

/// <summary>One POST route per function, named after its folder (<c>/Splitter</c>, <c>/WeatherProcessor</c>, <c>/SeismicProcessor</c>).</summary>
internal static class FunctionEndpoints
{
    public static IEndpointRouteBuilder MapFunctionEndpoints(this IEndpointRouteBuilder app)
    {
        app.MapPost("/" + SplitterFunction.Name, (HttpContext context, SplitterFunction function, ILoggerFactory loggers) =>
                InvokeAsync(context, SplitterFunction.Name, function.InvokeAsync, loggers))
            .WithName(SplitterFunction.Name);
        foreach (var definition in new[] { ProcessorDefinition.Weather, ProcessorDefinition.Seismic })
        {
            var name = definition.Name;
            app.MapPost("/" + name, (HttpContext context, ILoggerFactory loggers) =>
                    InvokeAsync(context, name, context.RequestServices.GetRequiredKeyedService<ProcessorFunction>(name).InvokeAsync, loggers))
                .WithName(name);
        }

        return app;
    }

    /// <summary>
    /// Maps the invocation's outcome to the status the host acts on: 2xx lets it send outputs and checkpoint;
    /// anything else fails the invocation, so the host's retry policy re-runs the batch first.
    /// </summary>
    private static async Task InvokeAsync(HttpContext context, string name, Func<HttpContext, Task> invoke, ILoggerFactory loggers)
    {
        var logger = loggers.CreateLogger("SensorPipeline.Functions." + name);
        var metrics = context.RequestServices.GetRequiredService<PipelineMetrics>();
        var clock = context.RequestServices.GetRequiredService<TimeProvider>();
        var started = clock.GetTimestamp();
        string? failure = "unhandled";
        try
        {
            await invoke(context);
            failure = null;
        }
        catch (InvalidInvocationException e)
        {
            failure = "invalid-request";
            FunctionsLog.InvalidInvocation(logger, name, e);
            await InvocationResponse.WriteAsync(context.Response, StatusCodes.Status400BadRequest, [], [e.Message], CancellationToken.None);
        }
        catch (StoreUnavailableException e)
        {
            failure = "store-unavailable";
            FunctionsLog.StoreUnavailable(logger, name, e);
            await InvocationResponse.WriteAsync(context.Response, StatusCodes.Status500InternalServerError, [], [e.Message], CancellationToken.None);
        }
        catch (OperationCanceledException) when (context.RequestAborted.IsCancellationRequested)
        {
            // The host gave up on the call (timeout or shutdown): it treats the invocation as failed; rethrow so
            // the server aborts the response instead of answering anything that could look like success.
            failure = "cancelled";
            FunctionsLog.InvocationCancelled(logger, name);
            throw;
        }
        finally
        {
            metrics.InvocationCompleted(name, clock.GetElapsedTime(started), failure);
        }
    }
}
