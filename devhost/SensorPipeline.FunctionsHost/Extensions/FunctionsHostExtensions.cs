using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Options;
using SensorPipeline.EventHubs;
using SensorPipeline.EventHubs.Http;
using SensorPipeline.FunctionsHost;
using SensorPipeline.FunctionsHost.Hubs;
using SensorPipeline.FunctionsHost.Listeners;
using SensorPipeline.FunctionsHost.Status;

// In Microsoft.Extensions.Hosting, as the SDK's builder extensions are, so Program.cs needs no extra using.
namespace Microsoft.Extensions.Hosting;

/// <summary>The one DI entry point of the local Functions host.</summary>
public static class FunctionsHostExtensions
{
    /// <summary>Runs the function app in <see cref="FunctionsHostOptions.AppRoot"/> against the emulator's
    /// <see cref="EventHubsNamespace"/> (register it first, with AddEventHubsEmulator). Options bind from the <c>FunctionsHost</c>
    /// section, then <paramref name="configure"/> (the devhost command line) applies.</summary>
    public static IHostApplicationBuilder AddFunctionsHost(this IHostApplicationBuilder builder, Action<FunctionsHostOptions>? configure = null)
    {
        ArgumentNullException.ThrowIfNull(builder);
        OptionsBuilder<FunctionsHostOptions> options = builder.Services.AddOptions<FunctionsHostOptions>()
            .BindConfiguration(FunctionsHostOptions.SectionName);
        if (configure is not null)
        {
            options.Configure(configure);
        }

        options.ValidateOnStart();
        builder.Services.TryAddEnumerable(ServiceDescriptor.Singleton<IValidateOptions<FunctionsHostOptions>, FunctionsHostOptionsValidator>());
        builder.Services.TryAddSingleton(TimeProvider.System);
        builder.Services.TryAddSingleton<FunctionsHostState>();
        builder.Services.TryAddEnumerable(ServiceDescriptor.Singleton<IStatusSection, FunctionsHostStatusSection>());
        builder.Services.TryAddSingleton<IEventHubsGateway>(sp => new NamespaceGateway(sp.GetRequiredService<EventHubsNamespace>()));
        builder.Services.AddHostedService<FunctionsHostService>();
        return builder;
    }
}
