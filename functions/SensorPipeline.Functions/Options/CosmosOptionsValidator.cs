namespace SensorPipeline.Functions.Options;

/// <summary>Every check for <see cref="CosmosOptions"/>, run once at start-up; messages name the setting.</summary>
internal sealed class CosmosOptionsValidator : SettingsValidator<CosmosOptions>
{
    protected override void Check(CosmosOptions options, List<string> failures)
    {
        if (options.AccountEndpoint is not { IsAbsoluteUri: true } endpoint || endpoint.Scheme is not ("https" or "http"))
        {
            failures.Add($"Cosmos__AccountEndpoint is required: an absolute https URL such as https://<account>.documents.azure.com:443/ (found '{options.AccountEndpoint}').");
        }

        if (options.AuthKey is { Length: > 0 } key && !IsBase64(key))
        {
            failures.Add("Cosmos__AuthKey must be a base64 account key (locally the well-known emulator key); leave it unset in Azure.");
        }

        CheckName(failures, "Cosmos__DatabaseName", options.DatabaseName);
        CheckName(failures, "Cosmos__ReadingsContainer", options.ReadingsContainer);
        CheckName(failures, "Cosmos__DevicesContainer", options.DevicesContainer);
        CheckName(failures, "Cosmos__ArchiveContainer", options.ArchiveContainer);
        CheckName(failures, "Cosmos__DeadLettersContainer", options.DeadLettersContainer);
        CheckDistinct(failures, options);
        if (options.ReadingsTtlSeconds is 0 or < -1)
        {
            failures.Add($"Cosmos__ReadingsTtlSeconds must be -1 (keep forever) or at least 1, found {options.ReadingsTtlSeconds}.");
        }

        Within(failures, "Cosmos__OperationTimeout", options.OperationTimeout, TimeSpan.FromMilliseconds(100), TimeSpan.FromMinutes(5));
        if (!Enum.IsDefined(options.ConnectionMode))
        {
            failures.Add($"Cosmos__ConnectionMode must be Gateway or Direct, found {options.ConnectionMode}.");
        }
    }

    private static void CheckName(List<string> failures, string setting, string? value)
    {
        // Cosmos DB resource names: 1-255 characters, none of '/', '\', '?', '#', and no trailing space.
        if (string.IsNullOrWhiteSpace(value) || value.Length > 255 || value.IndexOfAny(['/', '\\', '?', '#']) >= 0 || value.EndsWith(' '))
        {
            failures.Add($"{setting} must be a Cosmos DB resource name (1-255 characters, no '/', '\\', '?', '#'), found '{value}'.");
        }
    }

    /// <summary>
    /// Each container has one role, and a store refusal is judged by a write shaped for that role (partition key
    /// <c>/deviceId</c>, or <c>/id</c> for dead letters): two roles in one container would make that judgement meaningless.
    /// </summary>
    private static void CheckDistinct(List<string> failures, CosmosOptions options)
    {
        var roles = new[]
        {
            ("Cosmos__ReadingsContainer", options.ReadingsContainer),
            ("Cosmos__DevicesContainer", options.DevicesContainer),
            ("Cosmos__ArchiveContainer", options.ArchiveContainer),
            ("Cosmos__DeadLettersContainer", options.DeadLettersContainer),
        };
        foreach (var group in roles.GroupBy(r => r.Item2, StringComparer.Ordinal).Where(g => g.Count() > 1))
        {
            failures.Add($"{string.Join(" and ", group.Select(r => r.Item1))} name the same container '{group.Key}': each container holds one kind of document.");
        }
    }

    private static bool IsBase64(string value)
    {
        var buffer = new byte[(value.Length * 3 / 4) + 3];
        return Convert.TryFromBase64String(value, buffer, out _);
    }
}
