using SensorPipeline.CommandLine;
using SensorPipeline.FunctionsHost.Config;

namespace SensorPipeline.Stack;

/// <summary>The real Azure resources a local run uses instead of devhost's Event Hubs emulator, azurite and the
/// Cosmos DB emulator; each null keeps the local one. The emulators still run (the dashboard, loadgen's default
/// target), but the Functions host and the handler use these. Each becomes the app settings the Functions host and the
/// handler read in Azure: a connection string as the setting itself, a name as <c>__fullyQualifiedNamespace</c> /
/// <c>__blobServiceUri</c> / an account endpoint with a Microsoft Entra sign-in.</summary>
public sealed record RealAzure(AzureResource? EventHubs, AzureResource? Storage, AzureResource? Cosmos)
{
    /// <summary>The default of <see cref="ConsumerGroupSuffix"/>.</summary>
    public const string DefaultConsumerGroupSuffix = "local";

    /// <summary>
    /// With a real namespace, what each consumer group of the app gets appended (<c>--consumer-group-suffix</c>):
    /// <c>splitter-local</c>, <c>weather-processor-local</c>, … Default <see cref="DefaultConsumerGroupSuffix"/>. A fixed
    /// suffix rather than a new group per run: the groups are created once (Event Hubs Standard allows 20 per hub), and a
    /// restart resumes from the run's own checkpoints.
    /// </summary>
    public string ConsumerGroupSuffix { get; init; } = DefaultConsumerGroupSuffix;

    /// <summary>With a real namespace, the app settings that give each trigger of the app at <paramref name="appRoot"/>
    /// a consumer group of this run's own (<see cref="RunConsumerGroups"/>); none without one (the local emulator has
    /// no deployed app to share with).</summary>
    /// <exception cref="FunctionAppConfigurationException">Naming the function.json and field that stop it.</exception>
    public async Task<IReadOnlyDictionary<string, string>> RunConsumerGroupsAsync(string appRoot, CancellationToken cancellationToken) =>
        EventHubs is null
            ? new Dictionary<string, string>()
            : RunConsumerGroups.Settings(await FunctionAppLoader.LoadAsync(appRoot, cancellationToken), ConsumerGroupSuffix);

    /// <summary><see cref="ApplyTo"/>, then with a real namespace the run's own consumer groups
    /// (<see cref="RunConsumerGroupsAsync"/>) in devhost's environment.</summary>
    public async Task ApplyToAsync(string appRoot, IDictionary<string, string?> environment, ICollection<string> devHostSettings, CancellationToken cancellationToken)
    {
        ApplyTo(environment, devHostSettings);
        foreach (var (key, value) in await RunConsumerGroupsAsync(appRoot, cancellationToken))
        {
            environment[key] = value;
        }
    }

    /// <summary>Points devhost's environment (and so the handler's) at these resources, and with a real namespace tells
    /// the Functions host to read the namespace the app's connection setting names, not devhost's own.</summary>
    public void ApplyTo(IDictionary<string, string?> environment, ICollection<string> devHostSettings)
    {
        ArgumentNullException.ThrowIfNull(environment);
        ArgumentNullException.ThrowIfNull(devHostSettings);
        var (set, remove) = Settings();
        foreach (var key in remove)
        {
            environment.Remove(key);
        }

        foreach (var (key, value) in set)
        {
            environment[key] = value;
        }

        if (EventHubs is not null)
        {
            devHostSettings.Add("FunctionsHost:ExternalNamespace=true");
        }
    }

    /// <summary>The app settings that point the Functions host and the handler at these resources, and the local
    /// settings they replace (to remove: the handler refuses a connection string beside a namespace).</summary>
    public (IReadOnlyDictionary<string, string> Set, IReadOnlyList<string> Remove) Settings()
    {
        var set = new Dictionary<string, string>(StringComparer.Ordinal);
        var remove = new List<string>();
        if (EventHubs is { } eventHubs)
        {
            Put(eventHubs, "EventHubConnection", "EventHubConnection__fullyQualifiedNamespace", eventHubs.Host);
        }

        if (Storage is { } storage)
        {
            Put(storage, "AzureWebJobsStorage", "AzureWebJobsStorage__blobServiceUri", "https://" + storage.Host);
        }

        if (Cosmos is { } cosmos)
        {
            var (endpoint, key) = cosmos.ConnectionString is { } text ? CosmosParts(text) : ("https://" + cosmos.Host + ":443/", null);
            set["Cosmos__AccountEndpoint"] = endpoint;
            if (key is null)
            {
                remove.Add("Cosmos__AuthKey");
            }
            else
            {
                set["Cosmos__AuthKey"] = key;
            }

            // A real account's database and containers are infra's (main.bicep), as in Azure.
            set["Cosmos__CreateIfNotExists"] = "false";
        }

        return (set, remove);

        void Put(AzureResource resource, string connectionSetting, string identitySetting, string? identityValue)
        {
            if (resource.ConnectionString is { } connectionString)
            {
                set[connectionSetting] = connectionString;
                return;
            }

            set[identitySetting] = identityValue!;
            remove.Add(connectionSetting);
        }
    }

    private static (string Endpoint, string? Key) CosmosParts(string connectionString)
    {
        var parts = connectionString.Split(';', StringSplitOptions.RemoveEmptyEntries)
            .Select(p => p.Split('=', 2))
            .Where(p => p.Length == 2)
            .ToDictionary(p => p[0].Trim(), p => p[1].Trim(), StringComparer.OrdinalIgnoreCase);
        return (parts.GetValueOrDefault("AccountEndpoint") ?? throw new ArgumentException("--cosmos: the connection string has no AccountEndpoint"),
            parts.GetValueOrDefault("AccountKey"));
    }
}
