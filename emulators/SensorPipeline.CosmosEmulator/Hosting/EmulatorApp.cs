using System.Net;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.Options;
using SensorPipeline.CosmosEmulator.Http;
using SensorPipeline.CosmosEmulator.Security;

namespace SensorPipeline.CosmosEmulator.Hosting;

/// <summary>Builds and runs the emulator: Kestrel with HTTPS on 127.0.0.1 only (a self-signed certificate kept in the
/// data directory), the store opened and recovered before anything listens, one request dispatcher.</summary>
public static class EmulatorApp
{
    /// <summary>The line the stack, test fixtures and scripts parse to find the endpoint.</summary>
    public const string ListeningPrefix = "cosmos emulator listening on ";

    public static async Task<int> RunAsync(EmulatorArguments arguments)
    {
        ArgumentNullException.ThrowIfNull(arguments);
        var started = false;
        try
        {
            Directory.CreateDirectory(arguments.DataDirectory);
            var builder = WebApplication.CreateSlimBuilder();
            builder.Configuration.AddInMemoryCollection(arguments.Settings);
            var certificate = EmulatorCertificate.LoadOrCreate(arguments.DataDirectory, TimeProvider.System);
            builder.WebHost.ConfigureKestrel(kestrel =>
            {
                kestrel.Listen(IPAddress.Loopback, arguments.Port, listen => listen.UseHttps(certificate));
                kestrel.AddServerHeader = false;

                // Documents are at most 2 MB; a transactional batch carries up to 100 operations of them.
                kestrel.Limits.MaxRequestBodySize = 16L * 1024 * 1024;
            });

            // Request-level framework logs cost more than the request itself at thousands of requests per second.
            builder.Logging.AddFilter("Microsoft.AspNetCore", LogLevel.Warning);
            builder.Logging.AddFilter("Microsoft.Hosting.Lifetime", LogLevel.Warning);
            builder.Services.AddCosmosEmulator(arguments.DataDirectory);
            await using var app = builder.Build();
            app.Run(app.Services.GetRequiredService<GatewayDispatcher>().DispatchAsync);
            app.Lifetime.ApplicationStarted.Register(() =>
            {
                started = true;
                var address = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First();
                Console.Out.WriteLine(ListeningPrefix + address.TrimEnd('/') + "/");
                Console.Out.Flush();
            });
            await app.RunAsync();
            return 0;
        }
        catch (Exception e) when (!started)
        {
            await Console.Error.WriteLineAsync("cosmos emulator: cannot start: " + (e is OptionsValidationException v ? string.Join(" ", v.Failures) : e.Message));
            return 1;
        }
    }
}
