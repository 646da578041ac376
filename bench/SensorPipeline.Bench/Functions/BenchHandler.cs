using SensorPipeline.Clients;
using SensorPipeline.Functions.Extensions;
using SensorPipeline.Functions.Options;
using SensorPipeline.Functions.Processing;
using SensorPipeline.Functions.Storage;

namespace SensorPipeline.Functions.Bench;

/// <summary>The handler hosted in this process by its own DI, writing to one Cosmos DB emulator: its processors' write
/// path measured without the Functions host.</summary>
internal static class BenchHandler
{
    public static async Task<WebApplication> StartAsync(string repoRoot, CosmosEmulatorProcess store, int parallelism, int bulkMinimum, string database)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.Configuration.AddInMemoryCollection(new Dictionary<string, string?>
        {
            ["FUNCTIONS_APP_ROOT_PATH"] = repoRoot,
            ["FUNCTIONS_CUSTOMHANDLER_PORT"] = "0",
            ["Cosmos:AccountEndpoint"] = store.Endpoint.AbsoluteUri,
            ["Cosmos:AuthKey"] = CosmosEmulatorAccount.Key,
            ["Cosmos:DatabaseName"] = database,
            ["Cosmos:CreateIfNotExists"] = "true",
            ["Pipeline:WriteParallelism"] = parallelism.ToString(System.Globalization.CultureInfo.InvariantCulture),
            ["Pipeline:BulkMinimumDocuments"] = bulkMinimum.ToString(System.Globalization.CultureInfo.InvariantCulture),
            // The write path only: no splitter invocation, so nothing connects to this (well-formed) address.
            ["EventHubConnection"] = EventHubsEmulatorAccount.ConnectionString(9),
            ["Logging:LogLevel:Default"] = "Warning",
            // The benches count CPU and requests, not latency: on a shared, loaded machine the emulator may answer a bulk
            // request of hundreds of writes after more than the handler's 10 s, which would abandon and resend it.
            ["Cosmos:OperationTimeout"] = "00:02:00",
        });
        builder.AddSensorPipelineFunctions();
        // In this process the handler cannot trust the emulator through SSL_CERT_DIR (read once at process start), so
        // its clients are the handler's settings made by the one set-up that accepts the emulator on loopback.
        builder.Services.AddSingleton(sp => CosmosClients.Create(store.Endpoint, CosmosClientFactory.ClientOptions(
            sp.GetRequiredService<Microsoft.Extensions.Options.IOptions<CosmosOptions>>().Value, parallelism)));
        builder.Services.AddKeyedSingleton(StoreContainers.BulkClient, (sp, _) => CosmosClients.Create(store.Endpoint, CosmosClientFactory.ClientOptions(
            sp.GetRequiredService<Microsoft.Extensions.Options.IOptions<CosmosOptions>>().Value, parallelism, bulk: true)));
        var app = builder.Build();
        await app.StartAsync();
        return app;
    }

    /// <summary>The weather processor's write path.</summary>
    public static BatchWriter Weather(WebApplication app) => app.Services.GetRequiredKeyedService<BatchWriter>(ProcessorDefinition.Of(Protos.SensorKind.Weather).Name);
}
