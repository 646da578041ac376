using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using SensorPipeline.Clients;

namespace SensorPipeline.Functions.Tests.Infrastructure;

/// <summary>
/// The handler in-process (<see cref="WebApplicationFactory{TEntryPoint}"/> over its own <c>Program</c>, on the test
/// server instead of Kestrel), for the contract tests that need neither the store, the hubs nor Kestrel's limits: the same
/// start-up, options, routes and functions as the process, without starting one. Its store and hub endpoints are a loopback
/// port nothing listens on, so a test that reaches either fails instead of passing on an empty answer. Tests of
/// request sizes stay on <see cref="CustomHandlerProcess"/>: the test server does not apply Kestrel's limits.
/// </summary>
public sealed class InProcessHandler : WebApplicationFactory<Program>, IHandlerUnderTest
{
    private readonly Lazy<HttpClient> _http;

    public InProcessHandler() => _http = new Lazy<HttpClient>(() => CreateClient(new WebApplicationFactoryClientOptions { AllowAutoRedirect = false }));

    /// <inheritdoc/>
    HttpClient IHandlerUnderTest.Http => _http.Value;

    protected override void ConfigureWebHost(IWebHostBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        // The settings the Functions host gives the process, as host settings: the handler reads them while it builds.
        foreach (var (key, value) in new Dictionary<string, string>
        {
            ["FUNCTIONS_APP_ROOT_PATH"] = RepoLayout.Current.Root,
            ["FUNCTIONS_WORKER_RUNTIME"] = "custom",
            ["Cosmos:AccountEndpoint"] = "https://127.0.0.1:9/", // the discard port: nothing listens there
            ["Cosmos:AuthKey"] = CosmosEmulatorAccount.Key,
            ["Cosmos:DatabaseName"] = "in-process",
            ["Cosmos:CreateIfNotExists"] = "false",
            ["EventHubConnection"] = EventHubsEmulatorAccount.ConnectionString(9), // the discard port too
            ["Logging:LogLevel:Default"] = "Warning",
        })
        {
            builder.UseSetting(key, value);
        }
    }
}
