using System.Net.Http.Json;
using System.Text.Json;
using Microsoft.Azure.Cosmos;
using SensorPipeline.Clients;
using SensorPipeline.Emulators.Common;

namespace SensorPipeline.Stack;

/// <summary>
/// The whole local pipeline on loopback: the Cosmos DB emulator, azurite (the app's <c>AzureWebJobsStorage</c>, where
/// the Functions host's processors keep ownership and checkpoints), and devhost — the Event Hubs emulator and the local
/// Functions host, which starts the custom handler. Stopping it stops all of them.
/// </summary>
public sealed partial class LocalPipeline : IAsyncDisposable
{
    private static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web);
    private readonly HttpClient _http = new() { Timeout = TimeSpan.FromSeconds(30) };

    private CosmosEmulatorProcess _cosmos;
    private AzuriteProcess _azurite;
    private DevHostProcess? _devHost;

    /// <summary>What <c>./pipeline up</c> watches: the children's exits and the handler's.</summary>
    internal StackSupervision Supervision { get; } = new();

    private LocalPipeline(RepoLayout layout, StackOptions options, CosmosEmulatorProcess cosmos, AzuriteProcess azurite)
    {
        Layout = layout;
        Options = options;
        _cosmos = cosmos;
        _azurite = azurite;
    }

    /// <summary>Azurite's process (kill it for a Storage outage).</summary>
    public ChildProcess Azurite => _azurite.Process;

    private const string StorageRequestLogName = "azurite-requests.log";

    /// <summary>azurite's request log (<see cref="StackOptions.LogStorageRequests"/>); null when not logging.</summary>
    public string? StorageRequestLog => Options.LogStorageRequests ? Path.Combine(Options.DataDirectory, "logs", StorageRequestLogName) : null;

    /// <summary>The app's <c>AzureWebJobsStorage</c>: azurite's Blob service.</summary>
    public string StorageConnection => _azurite.ConnectionString;

    public RepoLayout Layout { get; }

    public StackOptions Options { get; }

    /// <summary>The Cosmos DB emulator's process (freeze it for an outage).</summary>
    public ChildProcess Cosmos => _cosmos.Process;

    public ChildProcess? DevHost => _devHost?.Process;

    public Uri CosmosEndpoint => _cosmos.Endpoint;

    /// <summary>A client on the stack's Cosmos DB emulator (<see cref="CosmosClients"/>); the caller disposes it.</summary>
    public CosmosClient CreateCosmosClient(CosmosClientOptions? options = null) => CosmosClients.Create(CosmosEndpoint, options);

    public Uri DevHostUrl { get; private set; } = new("http://127.0.0.1/");

    /// <summary>The emulator connection string loadgen and the handler use.</summary>
    public string EventHubConnection => EventHubsEmulatorAccount.ConnectionString(DevHostUrl.Port);

    public Uri DashboardUrl => new(DevHostUrl, "dashboard");

    /// <summary>Starts the Cosmos DB emulator, then devhost, and waits until both listen. The emulator keeps its data
    /// under the data directory's <c>cosmos/</c>, so a restart on the same directory finds everything again.</summary>
    public static async Task<LocalPipeline> StartAsync(RepoLayout layout, StackOptions options, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(layout);
        ArgumentNullException.ThrowIfNull(options);
        layout.RequireStackBuilt();
        Directory.CreateDirectory(options.DataDirectory);
        var logs = Path.Combine(options.DataDirectory, "logs");
        Directory.CreateDirectory(logs);

        var cosmos = await CosmosEmulatorProcess.StartAsync(Path.Combine(options.DataDirectory, "cosmos"), layout, Path.Combine(logs, "cosmos.log"),
            options.Echo, cancellationToken: cancellationToken);
        AzuriteProcess azurite;
        try
        {
            // Its blobs live in the data folder, so a restart of the stack resumes every function from its checkpoints.
            azurite = await AzuriteProcess.StartAsync(Path.Combine(options.DataDirectory, "azurite"), layout, logPath: Path.Combine(logs, "azurite.log"),
                debugLog: options.LogStorageRequests ? Path.Combine(logs, StorageRequestLogName) : null, cancellationToken: cancellationToken);
        }
        catch
        {
            await cosmos.DisposeAsync();
            throw;
        }

        var stack = new LocalPipeline(layout, options, cosmos, azurite);
        try
        {
            await stack.StartDevHostAsync(logs, cancellationToken);
            await stack.StartInstancesAsync(logs, cancellationToken);
            return stack;
        }
        catch
        {
            await stack.DisposeAsync();
            throw;
        }
    }

    private async Task StartDevHostAsync(string logs, CancellationToken cancellationToken, string logName = "devhost.log")
    {
        // devhost's port is chosen here, not by devhost, because the handler's settings must name it before start;
        // a restart keeps it, so loadgen and the handler's settings stay valid.
        var port = _devHost is not null ? DevHostUrl.Port : Options.DevHostPort == 0 ? LoopbackPort.GetFree() : Options.DevHostPort;
        DevHostUrl = new Uri(string.Create(CultureInfo.InvariantCulture, $"http://127.0.0.1:{port}/"));
        var appRoot = Options.AppRoot ?? Layout.PrepareAppRoot(Path.Combine(Options.DataDirectory, "app"));
        var environment = new Dictionary<string, string?>
        {
            ["EventHubConnection"] = EventHubConnection,
            ["AzureWebJobsStorage"] = StorageConnection,
            ["Cosmos__AccountEndpoint"] = CosmosEndpoint.ToString(),
            ["Cosmos__AuthKey"] = CosmosEmulatorAccount.Key,
            // The handler trusts the emulator's certificate from here, as it would any server's (it has no code for it).
            ["SSL_CERT_DIR"] = _cosmos.SslCertDir,
            ["Cosmos__DatabaseName"] = Options.DatabaseName,
            ["Cosmos__CreateIfNotExists"] = "true",
            // The handler's metrics go to devhost's local Application Insights endpoint, aggregated every few seconds.
            ["APPLICATIONINSIGHTS_CONNECTION_STRING"] = string.Create(CultureInfo.InvariantCulture,
                $"InstrumentationKey=00000000-0000-0000-0000-000000000000;IngestionEndpoint=http://127.0.0.1:{port}/"),
            ["Telemetry__MetricFlushInterval"] = Options.MetricFlushInterval.ToString("c", CultureInfo.InvariantCulture),
        };
        if (Options.MaxAge is { } maxAge)
        {
            environment["Pipeline__MaxAge"] = maxAge.ToString("c", CultureInfo.InvariantCulture);
        }

        foreach (var (key, value) in Options.Environment)
        {
            environment[key] = value;
        }

        var settings = new List<string>(Options.Instances is null ? [] : ["FunctionsHost:ObserveOnly=true", "FunctionsHost:ObserveInterval=00:00:00.500"]);
        await (Options.Azure?.ApplyToAsync(appRoot, environment, settings, cancellationToken) ?? Task.CompletedTask);

        (_appRoot, _environment) = (appRoot, environment);

        // SIGTERM first on stop, so devhost stops its handler and closes its logs itself.
        _devHost = await DevHostProcess.StartAsync(new DevHostStart
        {
            AppRoot = appRoot,
            DataDirectory = Path.Combine(Options.DataDirectory, "eventhubs"),
            Port = port,
            AmqpPort = Options.AmqpPort,
            Environment = environment,
            LogPath = Path.Combine(logs, logName),
            Echo = Options.Echo,
            StopGracePeriod = TimeSpan.FromSeconds(10),
            StartTimeout = TimeSpan.FromSeconds(90),
            // With separate instances devhost serves the hubs and reports what the instances write, running no processors.
            Settings = settings,
            StandardOutputLine = line => Supervision.OnDevHostLine(line),
        }, Layout, cancellationToken);
    }

    /// <summary>devhost's view of every function: checkpoints, lag, invocations.</summary>
    public async Task<FunctionsStatus> GetFunctionsStatusAsync(CancellationToken cancellationToken) =>
        await _http.GetFromJsonAsync<FunctionsStatus>(new Uri(DevHostUrl, "status/functions"), Json, cancellationToken)
        ?? throw new InvalidOperationException("devhost returned no status");

    /// <summary>Pauses (true) or resumes (false) one function's listeners through devhost's admin API: a paused function
    /// finishes the batch it is invoking and then holds, so its hub's events accumulate as lag.</summary>
    public Task SetPausedAsync(string function, bool paused, CancellationToken cancellationToken) =>
        SetPausedAsync(DevHostUrl, function, paused, cancellationToken);

    /// <summary>As <see cref="SetPausedAsync(string, bool, CancellationToken)"/>, on the host at <paramref name="host"/>
    /// (devhost or one separate instance).</summary>
    public async Task SetPausedAsync(Uri host, string function, bool paused, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(host);
        var route = string.Create(CultureInfo.InvariantCulture, $"admin/functions/{Uri.EscapeDataString(function)}/{(paused ? "pause" : "resume")}");
        using var request = new HttpRequestMessage(HttpMethod.Post, new Uri(host, route));
        request.Headers.Add("X-DevHost-Admin", "1");
        using var response = await _http.SendAsync(request, cancellationToken);
        if (!response.IsSuccessStatusCode)
        {
            throw new InvalidOperationException($"{host} answered {(int)response.StatusCode} to {route}: {await response.Content.ReadAsStringAsync(cancellationToken)}");
        }
    }

    /// <summary>Waits two metric aggregation periods and a second: the handlers cut their metrics once a period, so the
    /// last invocations' metrics have reached devhost by then (the handler's exporter cannot be asked when it sent).</summary>
    public Task WaitForLastMetricsAsync(CancellationToken cancellationToken) =>
        Task.Delay(Options.MetricFlushInterval * 2 + TimeSpan.FromSeconds(1), cancellationToken);

    /// <summary>The telemetry summary over the last <paramref name="window"/>.</summary>
    public Task<JsonDocument> GetTelemetrySummaryAsync(TimeSpan window, CancellationToken cancellationToken) =>
        GetSummaryAsync(string.Create(CultureInfo.InvariantCulture, $"window={Math.Ceiling(window.TotalSeconds)}"), cancellationToken);

    /// <summary>The telemetry summary of the aggregation periods that started in [<paramref name="from"/>, <paramref name="to"/>).</summary>
    public Task<JsonDocument> GetTelemetrySummaryAsync(DateTimeOffset from, DateTimeOffset to, CancellationToken cancellationToken) =>
        GetSummaryAsync($"from={Uri.EscapeDataString(from.UtcDateTime.ToString("O", CultureInfo.InvariantCulture))}&to={Uri.EscapeDataString(to.UtcDateTime.ToString("O", CultureInfo.InvariantCulture))}", cancellationToken);

    private async Task<JsonDocument> GetSummaryAsync(string range, CancellationToken cancellationToken)
    {
        await using var stream = await _http.GetStreamAsync(new Uri(DevHostUrl, $"telemetry/summary?{range}&bin=5"), cancellationToken);
        return await JsonDocument.ParseAsync(stream, cancellationToken: cancellationToken);
    }

    /// <summary>
    /// Waits until every function's consumer group has caught up on every partition three polls in a row (a splitter's
    /// last outputs land on the processor hubs just after its own lag reaches zero), and returns the time of the first
    /// of those polls: the confirmation polls are not the pipeline's work.
    /// </summary>
    public async Task<DateTimeOffset> WaitForDrainAsync(TimeSpan timeout, TimeSpan pollInterval, CancellationToken cancellationToken)
    {
        DateTimeOffset? firstQuiet = null;
        var quiet = 0;
        // Each poll counts the quiet ones in a row since the first; any lag starts the count again.
        await Eventually.UntilAsync(async token =>
        {
            var polledAt = DateTimeOffset.UtcNow;
            var status = await GetFunctionsStatusAsync(token);
            if (status.Functions.Count > 0 && status.Functions.All(f => !f.Paused && f.Partitions.All(p => p.Lag == 0)))
            {
                firstQuiet ??= polledAt;
                quiet++;
            }
            else
            {
                (firstQuiet, quiet) = (null, 0);
            }

            return quiet >= 3;
        }, "the pipeline to drain (three polls in a row with no lag)", timeout, pollInterval, () => $"see {Options.DataDirectory}/logs", cancellationToken);
        return firstQuiet!.Value;
    }

    public async ValueTask DisposeAsync()
    {
        await StopInstancesAsync();
        if (_devHost is not null)
        {
            await _devHost.DisposeAsync();
        }

        await _cosmos.DisposeAsync();
        await _azurite.DisposeAsync();
        _http.Dispose();
    }
}
