using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging.Console;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using SensorPipeline.CommandLine;

namespace SensorPipeline.LoadGen.Cli;

/// <summary>Start-up plumbing shared by the commands.</summary>
internal static class StartupValidation
{
    /// <summary>
    /// Runs a command: <paramref name="run"/> gets the command's services and its options, bound from the command line by
    /// <paramref name="bind"/>, once <typeparamref name="TValidator"/> passed them. Otherwise nothing runs: every failure
    /// is printed (each names its option) and the exit code is <see cref="ExitCodes.Usage"/>.
    /// </summary>
    public static async Task<int> RunAsync<TOptions, TValidator>(Action<TOptions> bind, bool verbose, Func<IServiceProvider, TOptions, Task<int>> run)
        where TOptions : class
        where TValidator : class, IValidateOptions<TOptions>
    {
        ArgumentNullException.ThrowIfNull(run);
        await using var provider = await BuildAsync<TOptions, TValidator>(bind, verbose);
        return provider is null ? ExitCodes.Usage : await run(provider, provider.GetRequiredService<IOptions<TOptions>>().Value);
    }

    /// <summary>
    /// A command's services: the system clock, logging, and its options bound by <paramref name="bind"/> and checked by
    /// <typeparamref name="TValidator"/>. Null when a check failed, after every failure was printed.
    /// </summary>
    private static async Task<ServiceProvider?> BuildAsync<TOptions, TValidator>(Action<TOptions> bind, bool verbose)
        where TOptions : class
        where TValidator : class, IValidateOptions<TOptions>
    {
        var services = new ServiceCollection();
        services.AddSingleton(TimeProvider.System);
        services.AddLoadGenLogging(verbose);
        services.AddOptions<TOptions>().Configure(bind).ValidateOnStart();
        services.AddSingleton<IValidateOptions<TOptions>, TValidator>();
        var provider = services.BuildServiceProvider();
        if (Passes(provider, Console.Error))
        {
            return provider;
        }

        await provider.DisposeAsync();
        return null;
    }

    /// <summary>Runs the ValidateOnStart checks; on failure prints every message (each names its option) and returns false.</summary>
    public static bool Passes(IServiceProvider provider, TextWriter error)
    {
        ArgumentNullException.ThrowIfNull(provider);
        ArgumentNullException.ThrowIfNull(error);
        try
        {
            provider.GetRequiredService<IStartupValidator>().Validate();
            return true;
        }
        catch (OptionsValidationException e)
        {
            foreach (var failure in e.Failures)
            {
                error.WriteLine("loadgen: " + failure);
            }

            return false;
        }
    }

    /// <summary>Logs go to stderr, one line each, so stdout carries only progress and tables.</summary>
    public static IServiceCollection AddLoadGenLogging(this IServiceCollection services, bool verbose) =>
        services.AddLogging(logging => logging
            .SetMinimumLevel(verbose ? LogLevel.Debug : LogLevel.Information)
            .AddFilter("System.Net.Http", LogLevel.Warning)
            .AddSimpleConsole(console =>
            {
                console.SingleLine = true;
                console.TimestampFormat = "HH:mm:ss ";
            })
            .Services.Configure<ConsoleLoggerOptions>(console => console.LogToStandardErrorThreshold = LogLevel.Trace));
}
