using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using SensorPipeline.ApplicationInsights;

// In Microsoft.Extensions.Hosting, as the SDK's builder extensions are, so Program.cs needs no extra using.
namespace Microsoft.Extensions.Hosting;

/// <summary>The one DI entry point of devhost's local Application Insights endpoint and dashboard.</summary>
public static class TelemetryIngestionExtensions
{
    /// <summary>Registers the in-memory telemetry store; options bind from the <c>Telemetry</c> section and are validated at start.</summary>
    public static IHostApplicationBuilder AddTelemetryIngestion(this IHostApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        builder.Services.AddOptions<TelemetryIngestionOptions>().BindConfiguration(TelemetryIngestionOptions.SectionName).ValidateOnStart();
        builder.Services.TryAddEnumerable(ServiceDescriptor.Singleton<IValidateOptions<TelemetryIngestionOptions>, TelemetryIngestionOptionsValidator>());
        builder.Services.TryAddSingleton(TimeProvider.System);
        builder.Services.TryAddSingleton<TelemetryStore>();
        return builder;
    }
}
