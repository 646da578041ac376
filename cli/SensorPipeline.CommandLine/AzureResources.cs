using System.CommandLine;
using System.CommandLine.Parsing;
using System.Text.RegularExpressions;

namespace SensorPipeline.CommandLine;

/// <summary>An Azure resource as a user names it on the command line: a connection string (shared key), or the
/// resource's name or host for a Microsoft Entra sign-in. <see cref="Host"/> is the name made whole
/// (<c>ns</c> → <c>ns.servicebus.windows.net</c>); null for a connection string.</summary>
public sealed record AzureResource(string? ConnectionString, string? Host)
{
    /// <summary>True when it is a connection string.</summary>
    public bool HasKey => ConnectionString is not null;
}

/// <summary>The options that point the local pipeline at real Azure resources (<c>--eventhubs</c>, <c>--storage</c>,
/// <c>--cosmos</c>), each a connection string or a name.</summary>
public static partial class AzureResources
{
    /// <summary>An Event Hubs namespace: <c>Endpoint=sb://…;SharedAccessKeyName=…;SharedAccessKey=…</c>, or the namespace
    /// (<c>ns</c> or <c>ns.servicebus.windows.net</c>).</summary>
    public static Option<AzureResource?> EventHubs() => new("--eventhubs")
    {
        Description = "A real Event Hubs namespace for the Functions host and the handler: a connection string, or the namespace name (Microsoft Entra sign-in).",
        HelpName = "connection string|namespace",
        CustomParser = r => Parse(r, "Endpoint=", ".servicebus.windows.net", NamespaceName()),
    };

    /// <summary>A Storage account (the app's AzureWebJobsStorage): a connection string, or the account name.</summary>
    public static Option<AzureResource?> Storage() => new("--storage")
    {
        Description = "A real Storage account as AzureWebJobsStorage (ownership and checkpoints): a connection string, or the account name (Microsoft Entra sign-in).",
        HelpName = "connection string|account",
        CustomParser = r => Parse(r, "AccountName=", ".blob.core.windows.net", AccountName()),
    };

    /// <summary>A Cosmos DB account: <c>AccountEndpoint=…;AccountKey=…</c>, or the account name.</summary>
    public static Option<AzureResource?> Cosmos() => new("--cosmos")
    {
        Description = "A real Cosmos DB account instead of the local emulator: a connection string, or the account name (Microsoft Entra sign-in).",
        HelpName = "connection string|account",
        CustomParser = r => Parse(r, "AccountEndpoint=", ".documents.azure.com", AccountName()),
    };

    private static AzureResource? Parse(ArgumentResult result, string connectionStringKey, string suffix, Regex name)
    {
        var text = result.Tokens[0].Value.Trim();
        if (text.Contains(connectionStringKey, StringComparison.OrdinalIgnoreCase))
        {
            return new AzureResource(text, null);
        }

        var bare = text.EndsWith(suffix, StringComparison.OrdinalIgnoreCase) ? text[..^suffix.Length] : text;
        if (name.IsMatch(bare))
        {
            return new AzureResource(null, bare + suffix);
        }

        result.AddError($"{OptionName.Of(result)}: '{text}' is neither a connection string (with {connectionStringKey}) nor a resource name (or <name>{suffix}).");
        return null;
    }

    // Event Hubs namespace names: 6–50 letters, digits and hyphens, starting with a letter.
    [GeneratedRegex("^[A-Za-z][A-Za-z0-9-]{4,48}[A-Za-z0-9]$")]
    private static partial Regex NamespaceName();

    // Storage and Cosmos DB account names: 3–44 lower-case letters, digits (and hyphens for Cosmos DB).
    [GeneratedRegex("^[a-z0-9][a-z0-9-]{1,42}[a-z0-9]$")]
    private static partial Regex AccountName();
}
