using Azure.Identity;
using Microsoft.ApplicationInsights;
using Microsoft.ApplicationInsights.Channel;
using Microsoft.ApplicationInsights.Extensibility;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Options;

namespace SensorPipeline.Functions.Telemetry;

/// <summary>Registers <see cref="PipelineMetrics"/>: one <see cref="TelemetryClient"/> per process, or a no-op when telemetry is off.</summary>
internal static class TelemetryExtensions
{
    public static IHostApplicationBuilder AddPipelineMetrics(this IHostApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        var services = builder.Services;
        services.AddOptions<TelemetryOptions>()
            .BindConfiguration(TelemetryOptions.Section)
            .Configure<IConfiguration>((o, configuration) =>
            {
                o.ConnectionString = configuration[TelemetryOptions.ConnectionStringSetting];
                o.AuthenticationString = configuration[TelemetryOptions.AuthenticationStringSetting];
            })
            .ValidateOnStart();
        services.AddSingleton<IValidateOptions<TelemetryOptions>, TelemetryOptionsValidator>();
        services.TryAddSingleton(TimeProvider.System);

        var enabled = !string.IsNullOrWhiteSpace(builder.Configuration[TelemetryOptions.ConnectionStringSetting]);
        if (!enabled)
        {
            services.AddSingleton(sp => new PipelineMetrics(null, sp.GetRequiredService<TimeProvider>()));
            return builder;
        }

        services.AddSingleton(sp => CreateConfiguration(sp.GetRequiredService<IOptions<TelemetryOptions>>().Value));
        services.AddSingleton(sp => new TelemetryClient(sp.GetRequiredService<TelemetryConfiguration>()));
        services.AddSingleton(sp =>
        {
            var options = sp.GetRequiredService<IOptions<TelemetryOptions>>().Value;
            return new PipelineMetrics(sp.GetRequiredService<TelemetryClient>(), sp.GetRequiredService<TimeProvider>(),
                options.HistogramBucketsPerDoubling, options.PartitionLagThreshold);
        });
        services.AddHostedService<MetricFlusher>();
        return builder;
    }

    /// <summary>A bare pipeline: no auto-collection modules, so nothing but our aggregates is sent.</summary>
    internal static TelemetryConfiguration CreateConfiguration(TelemetryOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var configuration = new TelemetryConfiguration
        {
            // The channel before the connection string: setting the connection string points this channel at its endpoint.
            // Send at least as often as aggregates are cut (the channel's own default is 30 s).
            TelemetryChannel = new InMemoryChannel { SendingInterval = options.MetricFlushInterval < TimeSpan.FromSeconds(30) ? options.MetricFlushInterval : TimeSpan.FromSeconds(30) },
        };
        configuration.ConnectionString = options.ConnectionString;
        configuration.TelemetryInitializers.Add(new RoleInitializer());
        if (!string.IsNullOrWhiteSpace(options.AuthenticationString)
            && TelemetryAuthentication.TryParse(options.AuthenticationString, out var clientId, out _))
        {
            // Application Insights has local auth disabled in Azure: ingestion needs an Entra token of this identity.
            configuration.SetAzureTokenCredential(new ManagedIdentityCredential(
                clientId is null ? ManagedIdentityId.SystemAssigned : ManagedIdentityId.FromUserAssignedClientId(clientId)));
        }

        return configuration;
    }
}
