using System.Globalization;
using System.Net;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Azure.Cosmos;
using Microsoft.Extensions.Configuration.Memory;
using Microsoft.Extensions.ObjectPool;
using Microsoft.Extensions.Options;
using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Policies;
using SensorPipeline.Core.Processing;
using SensorPipeline.Core.Splitting;
using SensorPipeline.Functions.Forwarding;
using SensorPipeline.Functions.Processing;
using SensorPipeline.Functions.DeviceStates;
using SensorPipeline.Functions.Invocation;
using SensorPipeline.Functions.Options;
using SensorPipeline.Functions.Storage;
using SensorPipeline.Functions.Telemetry;

namespace SensorPipeline.Functions.Extensions;

/// <summary>The handler's one DI entry point: options, host.json, Kestrel, Cosmos DB, pools and functions.</summary>
internal static class FunctionsExtensions
{
    /// <summary>Environment variable the Functions host sets: the port the handler must listen on.</summary>
    public const string PortSetting = "FUNCTIONS_CUSTOMHANDLER_PORT";

    /// <summary>Environment variable the Functions host sets: the function app's root (where host.json is).</summary>
    public const string AppRootSetting = "FUNCTIONS_APP_ROOT_PATH";

    public static WebApplicationBuilder AddSensorPipelineFunctions(this WebApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        var services = builder.Services;
        var configuration = builder.Configuration;

        // Defaults under every other source, so Logging__LogLevel__* in the environment still wins: ASP.NET Core's
        // per-request Information lines would cost CPU on every invocation and repeat what the host already logs.
        configuration.Sources.Insert(0, new MemoryConfigurationSource
        {
            InitialData = new Dictionary<string, string?>
            {
                ["Logging:LogLevel:Default"] = "Information",
                ["Logging:LogLevel:Microsoft.AspNetCore"] = "Warning",
            },
        });

        // host.json — or the app setting the Functions host applies over it — bounds the largest request; a bad value
        // stops start-up here, naming the file or the setting.
        var hostJson = HostJsonSettings.Load(configuration[AppRootSetting], Directory.GetCurrentDirectory(), configuration[HostJsonSettings.MaxEventBatchSizeOverrideKey]);
        var budget = new EnvelopeBudget(hostJson.MaxEventBatchSize);
        services.AddSingleton(hostJson);
        services.AddSingleton(budget);

        services.AddOptions<PipelineOptions>().BindConfiguration(PipelineOptions.Section).ValidateOnStart();
        services.AddOptions<CosmosOptions>().BindConfiguration(CosmosOptions.Section).ValidateOnStart();
        services.AddSingleton<IValidateOptions<PipelineOptions>, PipelineOptionsValidator>();
        services.AddSingleton<IValidateOptions<CosmosOptions>, CosmosOptionsValidator>();
        services.AddOptions<ForwardingOptions>().Configure<IConfiguration>(BindForwarding).ValidateOnStart();
        services.AddSingleton<IValidateOptions<ForwardingOptions>, ForwardingOptionsValidator>();
        services.AddSingleton(TimeProvider.System);
        builder.AddPipelineMetrics();

        ConfigureKestrel(builder);

        AddStore(services);
        AddFunctions(services);

        return builder;
    }

    /// <summary>The Cosmos DB clients (one for point operations, one for bulk), containers and the writers on them.</summary>
    private static void AddStore(IServiceCollection services)
    {
        services.AddSingleton(sp => CosmosClientFactory.Create(
            sp.GetRequiredService<IOptions<CosmosOptions>>().Value,
            sp.GetRequiredService<IOptions<PipelineOptions>>().Value.WriteParallelism));
        services.AddKeyedSingleton(StoreContainers.BulkClient, (sp, _) => CosmosClientFactory.Create(
            sp.GetRequiredService<IOptions<CosmosOptions>>().Value,
            sp.GetRequiredService<IOptions<PipelineOptions>>().Value.WriteParallelism,
            bulk: true));
        services.AddHostedService<ContainerInitializer>();
        services.AddSingleton<StoreContainers>();
        services.AddSingleton<StoreRetry>();
        services.AddSingleton<StoreCanary>();
        services.AddSingleton<DocumentWriter>();
        services.AddSingleton<DeviceStateGuard>();
        services.AddSingleton<DeadLetterStore>();
        services.AddSingleton<LiveArchiveReconciler>();
        services.AddSingleton<AttemptLedger>();
        services.AddSingleton<PoisonIsolation>();
        services.AddSingleton<PendingDeviceStates>();
        services.AddSingleton<PendingStatesMarks>();
        services.AddSingleton<DeviceStateWrites>();
        services.AddSingleton<DeviceStateRecovery>();
        services.AddSingleton<DeviceStateStatus>();
        services.AddHostedService<DeviceStateFlusher>();
    }

    /// <summary>The splitter and one processor function per kind, each processor with its pooled core and batch writer.</summary>
    private static void AddFunctions(IServiceCollection services)
    {
        var pools = new DefaultObjectPoolProvider { MaximumRetained = Environment.ProcessorCount * 4 };
        services.AddSingleton(pools.Create(new PooledPolicy<Splitter>(() => new Splitter())));
        services.AddSingleton<EnvelopeForwarder>();
        services.AddSingleton<SplitterFunction>();
        foreach (var definition in ProcessorDefinition.All)
        {
            services.AddKeyedSingleton(definition.Name, (sp, _) =>
            {
                var pipeline = sp.GetRequiredService<IOptions<PipelineOptions>>().Value;
                var staleness = new StalenessPolicy(pipeline.MaxAge);
                // The live/archive check is what finds a stale reading live; without it (a zero window) no stale state is used.
                var renderStaleStates = pipeline.EffectiveRedeliveryWindow > TimeSpan.Zero;
                var processors = pools.Create(new PooledPolicy<EnvelopeProcessor>(
                    () => new EnvelopeProcessor(definition.Kind, definition.Stage, staleness, renderStaleStates: renderStaleStates, maxClockSkew: pipeline.MaxClockSkew)));
                return ActivatorUtilities.CreateInstance<ProcessorFunction>(sp, definition, processors, sp.GetRequiredKeyedService<BatchWriter>(definition.Name));
            });
            services.AddKeyedSingleton(definition.Name, (sp, _) => ActivatorUtilities.CreateInstance<BatchWriter>(sp, definition));
        }
    }

    /// <summary>
    /// The splitter's connection comes from the settings the Functions host reads for <c>"connection": "EventHubConnection"</c>
    /// and the hub names from the settings each processor's function.json resolves (its kind's hub setting): one
    /// setting per fact, whoever reads it. Tuning goes under <c>Forwarding__</c>.
    /// </summary>
    private static void BindForwarding(ForwardingOptions options, IConfiguration configuration)
    {
        configuration.GetSection(ForwardingOptions.Section).Bind(options);
        options.ConnectionString = configuration[ForwardingOptions.ConnectionKey];
        options.FullyQualifiedNamespace = configuration[ForwardingOptions.NamespaceKey];
        options.ClientId = configuration[ForwardingOptions.ClientIdKey];
        foreach (var kind in SensorKindCatalog.Default.All)
        {
            options.HubNames[kind.Name] = configuration[kind.HubSetting] ?? kind.Hub;
        }
    }

    /// <summary>Prints the address once listening, so a parent process (devhost, tests) started with port 0 can find it.</summary>
    public static WebApplication AnnounceAddress(this WebApplication app)
    {
        ArgumentNullException.ThrowIfNull(app);
        app.Lifetime.ApplicationStarted.Register(() =>
        {
            var addresses = app.Services.GetService<IServer>()?.Features.Get<IServerAddressesFeature>()?.Addresses;
            var hostJson = app.Services.GetRequiredService<HostJsonSettings>();
            var budget = app.Services.GetRequiredService<EnvelopeBudget>();
            foreach (var address in addresses ?? [])
            {
                FunctionsLog.Listening(app.Logger, address, hostJson.Path, budget.MaxEventBatchSize, hostJson.Source, budget.MaxReadingsPerProcessorInvocation);
                Console.Out.WriteLine($"SensorPipeline.Functions listening on {address}");
                Console.Out.Flush();
            }
        });
        return app;
    }

    private static void ConfigureKestrel(WebApplicationBuilder builder)
    {
        var portText = builder.Configuration[PortSetting];
        var port = 0;
        if (!string.IsNullOrEmpty(portText) && (!int.TryParse(portText, NumberStyles.None, CultureInfo.InvariantCulture, out port) || port > 65535))
        {
            throw new InvalidOperationException($"{PortSetting} must be a port number from 0 to 65535, found '{portText}'.");
        }

        builder.WebHost.ConfigureKestrel(kestrel =>
        {
            // Loopback only: the host is on the same machine, and nothing else should reach the handler.
            kestrel.Listen(IPAddress.Loopback, port);

            // Over anything a host the handler supports can send (64 events, whatever it is configured with): Kestrel
            // cuts a body off unread, so its partition and age would never be known. The budget of the batch size in
            // use is the handler's own (RequestBody.MaxBytes), checked while it reads: a body over it is refused after
            // its metadata is read, with its age reported. Memory follows the body actually sent, not this cap.
            kestrel.Limits.MaxRequestBodySize = Invocation.RequestBody.MaxBytes(EnvelopeBudget.MaxSupportedBatchSize);
        });
    }
}
