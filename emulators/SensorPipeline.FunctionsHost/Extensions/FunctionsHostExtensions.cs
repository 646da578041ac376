using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Options;
using SensorPipeline.FunctionsHost;
using SensorPipeline.FunctionsHost.Listeners;
using SensorPipeline.FunctionsHost.Status;

// In Microsoft.Extensions.Hosting, as the SDK's builder extensions are, so Program.cs needs no extra using.
namespace Microsoft.Extensions.Hosting;

/// <summary>The one DI entry point of the local Functions host.</summary>
public static class FunctionsHostExtensions
{
    /// <summary>Runs the function app in <see cref="FunctionsHostOptions.AppRoot"/> against the registered
    /// <see cref="SensorPipeline.FunctionsHost.Hubs.IEventHubsGateway"/> (the devhost program registers one over the Event Hubs
    /// emulator). Options bind from the <c>FunctionsHost</c> section, then <paramref name="configure"/> (the devhost command
    /// line) applies.</summary>
    public static IHostApplicationBuilder AddFunctionsHost(this IHostApplicationBuilder builder, Action<FunctionsHostOptions>? configure = null)
    {
        ArgumentNullException.ThrowIfNull(builder);
        var options = builder.Services.AddOptions<FunctionsHostOptions>()
            .BindConfiguration(FunctionsHostOptions.SectionName);
        if (configure is not null)
        {
            options.Configure(configure);
        }

        options.ValidateOnStart();
        builder.Services.TryAddEnumerable(ServiceDescriptor.Singleton<IValidateOptions<FunctionsHostOptions>, FunctionsHostOptionsValidator>());
        builder.Services.TryAddSingleton(TimeProvider.System);
        builder.Services.TryAddSingleton<FunctionsHostState>();
        builder.Services.AddHostedService<FunctionsHostService>();
        return builder;
    }
}
