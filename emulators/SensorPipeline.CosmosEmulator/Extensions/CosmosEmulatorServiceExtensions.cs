using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Options;
using SensorPipeline.CosmosEmulator.Hosting;
using SensorPipeline.CosmosEmulator.Http;
using SensorPipeline.CosmosEmulator.Queries;
using SensorPipeline.CosmosEmulator.Security;
using SensorPipeline.CosmosEmulator.Documents;
using SensorPipeline.CosmosEmulator.Throttling;
using SensorPipeline.Emulators.Common;

namespace Microsoft.Extensions.DependencyInjection;

/// <summary>The emulator's one DI entry point.</summary>
public static class CosmosEmulatorServiceExtensions
{
    /// <summary>Registers the store kept in <paramref name="dataDirectory"/>, opened (and recovered) while the host
    /// starts; <see cref="CosmosEmulatorOptions"/> from section <c>Cosmos</c>, validated at start.</summary>
    public static IServiceCollection AddCosmosEmulator(this IServiceCollection services, string dataDirectory)
    {
        ArgumentException.ThrowIfNullOrEmpty(dataDirectory);
        services.AddOptions<CosmosEmulatorOptions>().BindConfiguration(CosmosEmulatorOptions.SectionName).ValidateOnStart();
        services.AddSingleton<IValidateOptions<CosmosEmulatorOptions>, CosmosEmulatorOptionsValidator>();
        services.TryAddSingleton(TimeProvider.System);
        services.AddSingleton(sp => sp.GetRequiredService<IOptions<CosmosEmulatorOptions>>().Value);
        services.AddSingleton<LogStorage>();
        services.AddSingleton(sp => EmulatorStore.Open(dataDirectory, sp.GetRequiredService<CosmosEmulatorOptions>(), sp.GetRequiredService<TimeProvider>(),
            sp.GetRequiredService<ILoggerFactory>().CreateLogger("SensorPipeline.CosmosEmulator.Documents"), sp.GetRequiredService<LogStorage>()));
        services.AddSingleton(sp => new MasterKeyAuthorizer(Convert.FromBase64String(sp.GetRequiredService<CosmosEmulatorOptions>().AccountKey), sp.GetRequiredService<TimeProvider>()));
        services.AddSingleton<FaultInjector>();
        services.AddSingleton<QueryRunner>();
        // The gateway routes each resource's requests to its endpoint.
        services.AddSingleton<AdminEndpoint>();
        services.AddSingleton<DatabasesEndpoint>();
        services.AddSingleton<ContainersEndpoint>();
        services.AddSingleton<PartitionKeyRangesEndpoint>();
        services.AddSingleton<QueriesEndpoint>();
        services.AddSingleton<BatchEndpoint>();
        services.AddSingleton<DocumentsEndpoint>();
        services.AddSingleton<GatewayDispatcher>();
        services.AddHostedService<StoreOpener>();
        return services;
    }

    /// <summary>Opens the store while the host starts, so recovery (and a corrupt log) happens before the emulator
    /// reports that it is listening.</summary>
    private sealed class StoreOpener(IServiceProvider services) : IHostedService
    {
        public Task StartAsync(CancellationToken cancellationToken)
        {
            services.GetRequiredService<EmulatorStore>();
            return Task.CompletedTask;
        }

        public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
    }
}
