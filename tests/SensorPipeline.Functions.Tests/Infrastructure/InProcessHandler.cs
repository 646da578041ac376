using System.Text.RegularExpressions;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.AspNetCore.TestHost;
using Microsoft.Azure.Cosmos;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using SensorPipeline.Clients;
using SensorPipeline.Functions.Options;
using SensorPipeline.Functions.Storage;

namespace SensorPipeline.Functions.Tests.Infrastructure;

/// <summary>
/// The handler in-process (<see cref="WebApplicationFactory{TEntryPoint}"/> over its own <c>Program</c>, on the test
/// server instead of Kestrel): the same start-up, options, routes, functions and store code as the process, without
/// starting one. Its settings are the process's (<see cref="CustomHandlerProcess.Settings"/>), given as host settings.
/// Tests of request sizes stay on <see cref="CustomHandlerProcess"/>: the test server does not apply Kestrel's limits.
/// </summary>
public sealed class InProcessHandler : WebApplicationFactory<Program>, IHandlerUnderTest
{
    /// <summary>Settings only a process has: its Kestrel port (the test server has none) and the environment that makes
    /// it trust the emulator's certificate (in-process, <see cref="TrustLoopbackEmulator"/> does).</summary>
    private static readonly HashSet<string> ProcessOnly = new(StringComparer.Ordinal) { "FUNCTIONS_CUSTOMHANDLER_PORT", "SSL_CERT_DIR" };

    private readonly IReadOnlyDictionary<string, string?> _settings;
    private readonly HandlerLog _log = new();
    private readonly Lazy<HttpClient> _http;
    private int _stopping;

    /// <summary>A handler whose store and hub endpoints are a loopback port nothing listens on, for the contract tests
    /// that reach neither: a test that does fails instead of passing on an empty answer.</summary>
    public InProcessHandler()
        : this(new Dictionary<string, string?>
        {
            ["FUNCTIONS_APP_ROOT_PATH"] = RepoLayout.Current.Root,
            ["FUNCTIONS_WORKER_RUNTIME"] = "custom",
            ["Cosmos__AccountEndpoint"] = "https://127.0.0.1:9/", // the discard port: nothing listens there
            ["Cosmos__AuthKey"] = CosmosEmulatorAccount.Key,
            ["Cosmos__DatabaseName"] = "in-process",
            ["Cosmos__CreateIfNotExists"] = "false",
            ["EventHubConnection"] = EventHubsEmulatorAccount.ConnectionString(9), // the discard port too
            ["Logging__LogLevel__Default"] = "Warning",
        })
    {
    }

    private InProcessHandler(IReadOnlyDictionary<string, string?> settings)
    {
        _settings = settings;
        _http = new Lazy<HttpClient>(() =>
        {
            var client = CreateClient(new WebApplicationFactoryClientOptions { AllowAutoRedirect = false });
            client.Timeout = TimeSpan.FromSeconds(60);
            return client;
        });
    }

    /// <inheritdoc/>
    public HttpClient Http => _http.Value;

    /// <inheritdoc/>
    public string Output => _log.Text;

    /// <summary>Starts the handler with <paramref name="settings"/> (environment-variable names, as for the process) and
    /// returns once it has started as the process does before it announces its address: options validated, containers made.</summary>
    internal static InProcessHandler Start(IReadOnlyDictionary<string, string?> settings)
    {
        var handler = new InProcessHandler(settings);
        try
        {
            _ = handler.Http;
            return handler;
        }
        catch
        {
            handler.Dispose();
            throw;
        }
    }

    /// <summary>Starts a handler expected to fail at start-up, as <see cref="CustomHandlerProcess.RunToFailureAsync"/> does
    /// a process; returns the failure as the process would print it (the exception with its inner ones) and its log.</summary>
    internal static string StartToFailure(IReadOnlyDictionary<string, string?> settings)
    {
        var handler = new InProcessHandler(settings);
        try
        {
            _ = handler.Http;
        }
        catch (Exception e)
        {
            return e + "\n" + handler.Output;
        }
        finally
        {
            handler.Dispose();
        }

        throw new Xunit.Sdk.XunitException("the handler started");
    }

    /// <inheritdoc/>
    public Task<Match> WaitForLineAsync(string pattern, TimeSpan timeout) => _log.WaitForLineAsync(pattern, timeout);

    /// <summary>Stops the handler as its process stops on SIGTERM: the host's own run stops it — hosted services first
    /// (the device-state flusher writes what is pending and deletes its mark) — then disposes it. The factory's own
    /// disposal would stop the host a second time, alongside that run, which disposes the store clients under it.</summary>
    public override async ValueTask DisposeAsync()
    {
        await StopOnceAsync();
        await base.DisposeAsync();
    }

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            StopOnceAsync().GetAwaiter().GetResult();
        }

        base.Dispose(disposing);
    }

    private async Task StopOnceAsync()
    {
        if (!_http.IsValueCreated || Interlocked.Exchange(ref _stopping, 1) == 1)
        {
            return;
        }

        IHostApplicationLifetime lifetime;
        try
        {
            lifetime = Services.GetRequiredService<IHostApplicationLifetime>();
        }
        catch (ObjectDisposedException)
        {
            return; // the host's own run has already stopped and disposed it (a test that stopped a hosted service itself)
        }

        var stopped = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using var registration = lifetime.ApplicationStopped.Register(() => stopped.TrySetResult());
        lifetime.StopApplication();
        await stopped.Task.WaitAsync(TimeSpan.FromSeconds(60));
    }

    protected override void ConfigureWebHost(IWebHostBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        // As host settings, under the names the environment-variable source gives them: the handler reads them while it builds.
        foreach (var (name, value) in _settings)
        {
            if (value is not null && !ProcessOnly.Contains(name))
            {
                builder.UseSetting(name.Replace("__", ":", StringComparison.Ordinal), value);
            }
        }

        builder.ConfigureLogging(logging =>
        {
            logging.ClearProviders();
            logging.AddProvider(_log);
        });
        builder.ConfigureTestServices(TrustLoopbackEmulator);
    }

    /// <summary>
    /// The handler's two clients made with its own options (<see cref="CosmosClientFactory.ClientOptions"/>) by the one
    /// client set-up for a loopback emulator (<see cref="CosmosClients.Create"/>), which accepts the emulator's
    /// self-signed certificate. The process trusts it through <c>SSL_CERT_DIR</c>, which OpenSSL reads from the native
    /// environment (on Unix, <see cref="Environment.SetEnvironmentVariable(string, string)"/> does not reach it), so a test
    /// host cannot give it to an in-process handler; replacing the registered clients keeps the concession out of the
    /// handler's code.
    /// </summary>
    private static void TrustLoopbackEmulator(IServiceCollection services)
    {
        services.RemoveAll<CosmosClient>();
        services.RemoveAllKeyed<CosmosClient>(StoreContainers.BulkClient);
        services.AddSingleton(sp => Client(sp, bulk: false));
        services.AddKeyedSingleton(StoreContainers.BulkClient, (sp, _) => Client(sp, bulk: true));
    }

    private static CosmosClient Client(IServiceProvider services, bool bulk)
    {
        var cosmos = services.GetRequiredService<IOptions<CosmosOptions>>().Value;
        var pipeline = services.GetRequiredService<IOptions<PipelineOptions>>().Value;
        var endpoint = cosmos.AccountEndpoint ?? throw new InvalidOperationException("Cosmos__AccountEndpoint is required.");
        return CosmosClients.Create(endpoint, CosmosClientFactory.ClientOptions(cosmos, pipeline.WriteParallelism, bulk), cosmos.AuthKey);
    }
}
