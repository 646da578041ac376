using System.CommandLine;

namespace SensorPipeline.LoadGen.Cli;

/// <summary>The options more than one command takes, defined once so their names, help and parsing agree; each command
/// gets instances of its own. An explicit option wins, then the setting name the handler uses (docs/conventions.md;
/// infra's azure.env), then the default.</summary>
internal static class SharedOptions
{
    /// <summary>The Event Hubs connection string [--connection], for SAS auth.</summary>
    public static Option<string?> Connection() => new("--connection") { Description = "Event Hubs connection string (default: env EventHubConnection)." };

    /// <summary>The Event Hubs namespace's host name [--namespace], for Microsoft Entra auth.</summary>
    public static Option<string?> Namespace() => new("--namespace")
    {
        Description = "Namespace host name for Microsoft Entra auth (no key), e.g. ns.servicebus.windows.net (default: env EventHubConnection__fullyQualifiedNamespace).",
    };

    /// <summary>HTTP attempts per event [--max-attempts].</summary>
    public static Option<int> MaxAttempts() => new("--max-attempts") { Description = "HTTP attempts per event.", DefaultValueFactory = _ => 6 };

    /// <summary>The Cosmos DB account's endpoint [--cosmos-endpoint].</summary>
    public static Option<Uri?> CosmosEndpoint() => new("--cosmos-endpoint") { Description = "Cosmos DB endpoint (default: env Cosmos__AccountEndpoint).", CustomParser = UriParser.Parse };

    /// <summary>The Cosmos DB account key [--cosmos-key].</summary>
    public static Option<string?> CosmosKey() => new("--cosmos-key") { Description = "Account key (default: env Cosmos__AuthKey; the emulator key on loopback; else Microsoft Entra)." };

    /// <summary>A database or container name [<paramref name="name"/>], read with <see cref="OrEnv"/>: its help says the
    /// setting <paramref name="environmentName"/> comes before the default (which the help shows after it).</summary>
    public static Option<string> StoreName(string name, string what, string environmentName, string defaultValue) => new(name)
    {
        Description = $"{what} (when not given: env {environmentName}, else the default).",
        DefaultValueFactory = _ => defaultValue,
    };

    /// <summary>Where events go: an explicit <c>--connection</c> or <c>--namespace</c>, else env EventHubConnection, else
    /// env EventHubConnection__fullyQualifiedNamespace (an explicit one is never paired with the other from the environment).</summary>
    public static (string? Connection, string? Namespace) EventHubsTarget(ParseResult parse, Option<string?> connection, Option<string?> ns)
    {
        ArgumentNullException.ThrowIfNull(parse);
        var fullyQualifiedNamespace = parse.GetValue(ns);
        var connectionString = parse.GetValue(connection) ?? (fullyQualifiedNamespace is null ? Env("EventHubConnection") : null);
        fullyQualifiedNamespace ??= connectionString is null ? Env("EventHubConnection__fullyQualifiedNamespace") : null;
        return (connectionString, fullyQualifiedNamespace);
    }

    /// <summary>The option's value when given, else the setting <paramref name="environmentName"/>, else the option's default.</summary>
    public static string OrEnv(ParseResult parse, Option<string> option, string environmentName)
    {
        ArgumentNullException.ThrowIfNull(parse);
        return parse.GetResult(option) is { Implicit: false } || Env(environmentName) is not { } fromEnv
            ? parse.GetValue(option)!
            : fromEnv;
    }

    /// <summary>An environment setting; blank counts as unset.</summary>
    public static string? Env(string name) => Environment.GetEnvironmentVariable(name) is { } value && !string.IsNullOrWhiteSpace(value) ? value : null;
}
