using SensorPipeline.LoadGen.Cli;

namespace SensorPipeline.LoadGen.Store;

/// <summary>The checks of <see cref="CosmosAccountOptions"/> every command that reads the store makes at start; each
/// message names the option.</summary>
internal static class CosmosAccountValidation
{
    /// <summary>Adds a failure per bad setting to <paramref name="failures"/>; <paramref name="needed"/> says what the
    /// endpoint is needed for when it is missing.</summary>
    public static void Check(CosmosAccountOptions options, List<string> failures, string needed)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(failures);
        if (options.CosmosEndpoint is null)
        {
            failures.Add($"--cosmos-endpoint (or env Cosmos__AccountEndpoint) is required: {needed}.");
        }
        else if (options.CosmosEndpoint.Scheme is not ("https" or "http"))
        {
            failures.Add($"--cosmos-endpoint: '{options.CosmosEndpoint}' must be an https:// URL.");
        }

        if (options.CosmosKey is { } key && !IsBase64(key))
        {
            failures.Add("--cosmos-key / Cosmos__AuthKey is not a base64 key.");
        }

        OptionChecks.NotEmpty(failures, ("--database", options.Database), ("--deadletters-container", options.DeadLettersContainer));
    }

    private static bool IsBase64(string key)
    {
        Span<byte> buffer = stackalloc byte[(key.Length * 3 / 4) + 3];
        return key.Length > 0 && Convert.TryFromBase64String(key, buffer, out _);
    }
}
