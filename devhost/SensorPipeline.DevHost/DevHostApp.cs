using System.Net;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using SensorPipeline.EventHubs.Amqp;

namespace SensorPipeline.DevHost;

/// <summary>Builds and runs the devhost web application: Kestrel on 127.0.0.1 only, quiet per-request logging,
/// configuration from environment variables and <c>--set</c>. Start-up failures become a message on stderr and exit code 1.</summary>
public static class DevHostApp
{
    /// <summary>The line test fixtures and scripts parse to find the port.</summary>
    public const string ListeningPrefix = "devhost listening on ";

    public static async Task<int> RunAsync(DevHostArguments arguments, Action<WebApplicationBuilder> addServices, Action<WebApplication> mapEndpoints)
    {
        ArgumentNullException.ThrowIfNull(arguments);
        ArgumentNullException.ThrowIfNull(addServices);
        ArgumentNullException.ThrowIfNull(mapEndpoints);
        var started = false;
        try
        {
            var builder = WebApplication.CreateSlimBuilder(new WebApplicationOptions { ContentRootPath = arguments.AppRoot });
            builder.Configuration.AddInMemoryCollection(arguments.Settings);
            builder.WebHost.ConfigureKestrel(kestrel =>
            {
                // With the Event Hubs emulator in the process, the port serves AMQP too (detected by its first bytes),
                // and an extra plain-AMQP port (5672 by default) listens when free.
                var amqp = kestrel.ApplicationServices.GetService<AmqpConnectionDispatch>();
                kestrel.Listen(IPAddress.Loopback, arguments.Port, listen => UseAmqp(listen, amqp));
                if (amqp?.ExtraPortIfFree() is { } amqpPort)
                {
                    kestrel.Listen(IPAddress.Loopback, amqpPort, listen => UseAmqp(listen, amqp));
                }

                kestrel.AddServerHeader = false;
            });

            // Request-level framework logs cost more than the request itself at 20,000 requests/s.
            builder.Logging.AddFilter("Microsoft.AspNetCore", LogLevel.Warning);
            builder.Logging.AddFilter("Microsoft.Hosting.Lifetime", LogLevel.Warning);
            addServices(builder);
            await using var app = builder.Build();
            app.UseWebSockets();
            mapEndpoints(app);
            app.Lifetime.ApplicationStarted.Register(() =>
            {
                started = true;
                var address = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First();
                Console.Out.WriteLine(ListeningPrefix + address);
                Console.Out.Flush();
            });
            await app.RunAsync();
            return 0;
        }
        catch (Exception e) when (!started)
        {
            // Anything that stops start-up (a config file, a setting, a locked or corrupt data directory): say what is
            // wrong — the messages name the file and the setting — and exit non-zero. After start-up, errors propagate.
            await Console.Error.WriteLineAsync("devhost: cannot start: " + e.Message);
            return 1;
        }
    }

    private static void UseAmqp(ListenOptions listen, AmqpConnectionDispatch? amqp)
    {
        if (amqp is not null)
        {
            listen.Use(amqp.Wrap);
        }
    }
}
