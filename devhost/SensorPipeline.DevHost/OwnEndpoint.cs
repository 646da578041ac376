using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;

namespace SensorPipeline.DevHost;

/// <summary>devhost's own address (its port serves AMQP too), once Kestrel listens: the Functions host's processors
/// connect there whatever port the app's connection setting names.</summary>
internal sealed class OwnEndpoint(IServer server, IHostApplicationLifetime lifetime) : IEventHubsEndpoint
{
    public async Task<Uri> GetAsync(CancellationToken cancellationToken)
    {
        var started = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using (lifetime.ApplicationStarted.Register(() => started.TrySetResult()))
        {
            await started.Task.WaitAsync(cancellationToken);
        }

        var address = server.Features.Get<IServerAddressesFeature>()?.Addresses.FirstOrDefault()
            ?? throw new InvalidOperationException("devhost listens on no address");
        return new Uri(address);
    }
}

/// <summary>A known endpoint: the devhost an instance process reads from (its <c>--devhost</c>).</summary>
internal sealed class FixedEndpoint(Uri endpoint) : IEventHubsEndpoint
{
    public Task<Uri> GetAsync(CancellationToken cancellationToken) => Task.FromResult(endpoint);
}
