using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using SensorPipeline.EventHubs;
using SensorPipeline.EventHubs.Amqp;
using SensorPipeline.EventHubs.Http;

namespace Microsoft.Extensions.Hosting;

/// <summary>The one DI entry point of the emulator.</summary>
public static class EventHubsEmulatorExtensions
{
    /// <summary>Registers the namespace described by <paramref name="hubsConfigPath"/> (Event Hubs emulator Config.json
    /// format) stored under <paramref name="dataDirectory"/>: <see cref="EventHubsNamespace"/> as a singleton, opened
    /// (and recovered) at start-up; <see cref="EventLogOptions"/> from section <c>EventHubs</c>,
    /// <see cref="SasOptions"/> from <c>EventHubs:Sas</c> and <see cref="AmqpOptions"/> from <c>EventHubs:Amqp</c>, all
    /// validated at start; the AMQP endpoint and its <see cref="AmqpConnectionDispatch"/>, which the host puts on its
    /// Kestrel listeners.</summary>
    /// <exception cref="NamespaceConfigException">The config file is malformed; the message names the file and field.</exception>
    public static IHostApplicationBuilder AddEventHubsEmulator(this IHostApplicationBuilder builder, string hubsConfigPath, string dataDirectory)
    {
        ArgumentNullException.ThrowIfNull(builder);
        ArgumentException.ThrowIfNullOrEmpty(hubsConfigPath);
        ArgumentException.ThrowIfNullOrEmpty(dataDirectory);

        // Read now, not lazily: a malformed config must stop start-up before anything listens.
        var config = NamespaceConfigLoader.Load(hubsConfigPath);
        var services = builder.Services;
        services.AddOptions<EventLogOptions>().BindConfiguration(EventLogOptions.SectionName).ValidateOnStart();
        services.AddSingleton<IValidateOptions<EventLogOptions>, EventLogOptionsValidator>();
        services.AddOptions<SasOptions>().BindConfiguration(SasOptions.SectionName).ValidateOnStart();
        services.AddSingleton<IValidateOptions<SasOptions>, SasOptionsValidator>();
        services.AddSingleton<SasVerifier>();
        services.AddOptions<AmqpOptions>().BindConfiguration(AmqpOptions.SectionName).ValidateOnStart();
        services.AddSingleton<IValidateOptions<AmqpOptions>, AmqpOptionsValidator>();
        services.AddSingleton<AmqpEndpoint>();
        services.AddSingleton<AmqpConnectionDispatch>();
        services.TryAddSingleton(TimeProvider.System);
        services.AddSingleton(config);
        services.AddSingleton(sp => EventHubsNamespace.Open(
            config,
            dataDirectory,
            sp.GetRequiredService<IOptions<EventLogOptions>>().Value,
            sp.GetRequiredService<TimeProvider>(),
            sp.GetRequiredService<ILoggerFactory>().CreateLogger("SensorPipeline.EventHubs")));
        services.AddHostedService<EventHubsNamespaceOpener>();
        services.AddHostedService<AmqpConnectionCloser>();
        return builder;
    }

    /// <summary>Closes the AMQP connections as soon as the host begins to stop, before Kestrel waits for its connections
    /// to end (AMQP clients keep theirs open).</summary>
    private sealed class AmqpConnectionCloser(AmqpEndpoint endpoint, IHostApplicationLifetime lifetime) : IHostedService
    {
        public Task StartAsync(CancellationToken cancellationToken)
        {
            lifetime.ApplicationStopping.Register(endpoint.CloseAll);
            return Task.CompletedTask;
        }

        public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
    }

    /// <summary>Opens the namespace while the host starts, so recovery (and a locked or corrupt data directory)
    /// happens before the devhost reports that it is listening.</summary>
    private sealed class EventHubsNamespaceOpener(IServiceProvider services) : IHostedService
    {
        public Task StartAsync(CancellationToken cancellationToken)
        {
            services.GetRequiredService<EventHubsNamespace>();
            return Task.CompletedTask;
        }

        public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
    }
}
