using System.Text.RegularExpressions;
using Microsoft.Azure.Cosmos;
using SensorPipeline.Clients;

namespace SensorPipeline.CosmosEmulator.Bench;

/// <summary>A store under measurement: its own process (whose CPU and memory are read from /proc) and its endpoint.</summary>
internal sealed partial class Store : IAsyncDisposable
{
    public const string Emulator = "emulator";
    public const string StandIn = "standin";

    private readonly IAsyncDisposable _process;

    private Store(string name, string description, int processId, Uri endpoint, IAsyncDisposable process)
    {
        (Name, Description, ProcessId, Endpoint, _process) = (name, description, processId, endpoint, process);
    }

    public string Name { get; }

    public string Description { get; }

    public int ProcessId { get; }

    public Uri Endpoint { get; }

    /// <summary>The emulator as the stack runs it (Release build, default settings: durability Always) over a
    /// temporary data directory.</summary>
    public static async Task<Store> StartEmulatorAsync(CancellationToken cancellationToken)
    {
        var emulator = await CosmosEmulatorProcess.StartAsync(cancellationToken);
        return new Store(Emulator, "emulator (durability Always)", emulator.Process.Id, emulator.Endpoint, emulator);
    }

    /// <summary>The former npm stand-in, from the pinned package in tests/cosmos-compat, on a free loopback port.</summary>
    public static async Task<Store> StartStandInAsync(RepoLayout layout, CancellationToken cancellationToken)
    {
        var modules = layout.File("tests", "cosmos-compat", "node_modules");
        if (!Directory.Exists(Path.Combine(modules, "@vercel", "cosmosdb-server")))
        {
            throw new InvalidOperationException($"{modules}/@vercel/cosmosdb-server is missing: run `npm ci --prefix tests/cosmos-compat` (./pipeline bench cosmos does).");
        }

        var process = ChildProcess.Start(new ChildProcessOptions
        {
            Name = "standin",
            FileName = "node",
            Arguments = [Path.Combine(AppContext.BaseDirectory, "standin.cjs"), "0"],
            Environment = new Dictionary<string, string?> { ["NODE_PATH"] = modules },
            // It prints a stack trace for some errors: keep a bounded tail for messages.
            MaxCapturedLines = 1000,
        });
        try
        {
            var endpoint = await process.WaitForUrlAsync(Announce(), TimeSpan.FromSeconds(60), cancellationToken);
            return new Store(StandIn, "npm stand-in @vercel/cosmosdb-server 1.0.1 (in memory)", process.Id, endpoint, process);
        }
        catch
        {
            await process.DisposeAsync();
            throw;
        }
    }

    /// <summary>A client as the handler configures one locally (<see cref="CosmosClients"/>: Gateway mode, this endpoint
    /// only, the emulator's certificate for a loopback endpoint only), no content on write. The stand-in's certificate
    /// names another host (CN=cosmosdb), so its client accepts that certificate alone, by its subject. The SDK refuses a
    /// connection limit beside an HTTP client factory (even a null one), so each client gets one of the two.</summary>
    public CosmosClient CreateClient(int concurrency, bool bulk)
    {
        var options = new CosmosClientOptions
        {
            ApplicationName = "sensorpipeline-cosmos-bench",
            EnableContentResponseOnWrite = false,
            AllowBulkExecution = bulk,
        };
        if (Name == StandIn)
        {
            options.HttpClientFactory = () => new HttpClient(StandInHandler(concurrency));
        }
        else
        {
            options.GatewayModeMaxConnectionLimit = Math.Max(50, concurrency * 2);
        }

        return CosmosClients.Create(Endpoint, options);
    }

    private static HttpClientHandler StandInHandler(int concurrency) => new()
    {
        MaxConnectionsPerServer = Math.Max(50, concurrency * 2),
        ServerCertificateCustomValidationCallback = static (request, certificate, _, _) =>
            request.RequestUri is { IsLoopback: true } && certificate?.Subject.Contains("CN=cosmosdb", StringComparison.Ordinal) == true,
    };

    public ValueTask DisposeAsync() => _process.DisposeAsync();

    [GeneratedRegex(@"listening on (?<url>https://127\.0\.0\.1:\d+/)")]
    private static partial Regex Announce();
}
