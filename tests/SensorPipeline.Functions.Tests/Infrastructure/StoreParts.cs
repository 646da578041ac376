using Microsoft.Azure.Cosmos;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;
using SensorPipeline.Clients;
using SensorPipeline.Functions.Invocation;
using SensorPipeline.Functions.Options;
using SensorPipeline.Functions.Storage;
using SensorPipeline.Functions.Telemetry;
using MsOptions = Microsoft.Extensions.Options.Options;

namespace SensorPipeline.Functions.Tests.Infrastructure;

/// <summary>
/// The handler's store pieces — retry, canary, writer, attempt ledger, dead letters, poison isolation — wired as its DI
/// wires them, over one endpoint (the stand-in, or the fault proxy in front of it), for in-process tests of one piece.
/// </summary>
internal sealed class StoreParts : IDisposable
{
    public StoreParts(Uri endpoint, string database, ILogger<AttemptLedger>? ledgerLogger = null)
    {
        Client = CosmosClients.Create(endpoint);
        var cosmos = MsOptions.Create(new CosmosOptions { AccountEndpoint = endpoint, DatabaseName = database });
        var pipeline = MsOptions.Create(new PipelineOptions());
        var metrics = new PipelineMetrics(null, TimeProvider.System);
        var containers = new StoreContainers(Client, Client, cosmos, pipeline);
        var retry = new StoreRetry(pipeline, cosmos, TimeProvider.System, metrics, NullLogger<StoreRetry>.Instance);
        Canary = new StoreCanary(Client, cosmos, retry, new NeverStopping(), NullLogger<StoreCanary>.Instance);
        var writer = new DocumentWriter(retry, Canary);
        Ledger = new AttemptLedger(containers, retry, writer, ledgerLogger ?? NullLogger<AttemptLedger>.Instance);
        var deadLetters = new DeadLetterStore(containers, writer, pipeline, NullLogger<DeadLetterStore>.Instance);
        Isolation = new PoisonIsolation(Ledger, deadLetters, pipeline, TimeProvider.System, metrics, NullLogger<PoisonIsolation>.Instance);
    }

    public CosmosClient Client { get; }

    public StoreCanary Canary { get; }

    public AttemptLedger Ledger { get; }

    public PoisonIsolation Isolation { get; }

    public void Dispose() => Client.Dispose();
}

/// <summary>An application lifetime that never stops (the canary's probes run under its stopping token).</summary>
internal sealed class NeverStopping : Microsoft.Extensions.Hosting.IHostApplicationLifetime
{
    public CancellationToken ApplicationStarted => CancellationToken.None;

    public CancellationToken ApplicationStopping => CancellationToken.None;

    public CancellationToken ApplicationStopped => CancellationToken.None;

    public void StopApplication()
    {
    }
}
