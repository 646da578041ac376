using SensorPipeline.Functions.Processing;
using SensorPipeline.Functions.Invocation;
using SensorPipeline.Functions.Telemetry;

namespace SensorPipeline.Functions.Endpoints;

/// <summary>One POST route per function, named after its folder (<c>/Splitter</c>, and each kind's processor: <c>/WeatherProcessor</c>).</summary>
internal static class FunctionEndpoints
{
    public static IEndpointRouteBuilder MapFunctionEndpoints(this IEndpointRouteBuilder app)
    {
        app.MapPost("/" + SplitterFunction.Name, (HttpContext context, SplitterFunction function, ILoggerFactory loggers) =>
                InvokeAsync(context, SplitterFunction.Name, function.InvokeAsync, loggers))
            .WithName(SplitterFunction.Name);
        foreach (var definition in ProcessorDefinition.All)
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
        string? failureKind = null;
        try
        {
            await invoke(context);
        }
        catch (Exception e)
        {
            var failure = InvocationFailures.Classify(e, context.RequestAborted.IsCancellationRequested);
            failureKind = failure.Kind;
            FunctionsLog.InvocationFailed(logger, failure.Level, name, failure.Kind, failure.Status ?? 0, e);
            if (failure.Systemic)
            {
                // Retried forever and no fault of the data: the alarm must know (a refused request's age is reported too).
                metrics.SystemicFailure(name);
            }

            if (failure.Status is not { } status || context.Response.HasStarted)
            {
                // Cancelled by the host, or the answer is already on its way: abort it rather than answer anything
                // that could look like success.
                throw;
            }

            await InvocationResponse.WriteAsync(context.Response, status, [InvocationFailures.Unwrap(e).Message], CancellationToken.None);
        }
        finally
        {
            metrics.InvocationCompleted(name, clock.GetElapsedTime(started), failureKind);
        }
    }
}
