using System.Text.Json;
using SensorPipeline.Core.Splitting;

namespace SensorPipeline.Functions.Options;

/// <summary>
/// The one host.json value the handler depends on: <c>extensions.eventHubs.maxEventBatchSize</c>, which bounds the
/// largest request the host can send (<see cref="EnvelopeBudget"/>) — or the app setting
/// <see cref="MaxEventBatchSizeOverride"/>, which the Functions host applies over host.json, so the handler must too.
/// Read once at start-up; a missing or unusable value stops start-up with a message naming the file or app setting.
/// </summary>
/// <param name="Path">The host.json read.</param>
/// <param name="MaxEventBatchSize">The batch size the host uses.</param>
/// <param name="Source">Where it came from: host.json's setting, or the app setting that overrides it.</param>
internal sealed record HostJsonSettings(string Path, int MaxEventBatchSize, string Source)
{
    /// <summary>The Event Hubs extension's default when host.json does not set it.</summary>
    public const int DefaultMaxEventBatchSize = 100;

    /// <summary>The app setting (environment variable) the Functions host reads over host.json's value.</summary>
    public const string MaxEventBatchSizeOverride = "AzureFunctionsJobHost__extensions__eventHubs__maxEventBatchSize";

    /// <summary>The same setting as a configuration key.</summary>
    public const string MaxEventBatchSizeOverrideKey = "AzureFunctionsJobHost:extensions:eventHubs:maxEventBatchSize";

    /// <summary>
    /// Finds host.json in <paramref name="appRoot"/> (FUNCTIONS_APP_ROOT_PATH) or else in <paramref name="workingDirectory"/>
    /// and its parents; <paramref name="overrideValue"/> (<see cref="MaxEventBatchSizeOverride"/>, when set) wins over it.
    /// </summary>
    public static HostJsonSettings Load(string? appRoot, string workingDirectory, string? overrideValue = null)
    {
        var path = Find(appRoot, workingDirectory);
        JsonDocument document;
        try
        {
            document = JsonDocument.Parse(File.ReadAllBytes(path), new JsonDocumentOptions { CommentHandling = JsonCommentHandling.Skip, AllowTrailingCommas = true });
        }
        catch (JsonException e)
        {
            throw new InvalidOperationException($"{path}: not valid JSON ({e.Message}).", e);
        }

        using (document)
        {
            var max = DefaultMaxEventBatchSize;
            if (document.RootElement.ValueKind == JsonValueKind.Object
                && document.RootElement.TryGetProperty("extensions", out var extensions) && extensions.ValueKind == JsonValueKind.Object
                && extensions.TryGetProperty("eventHubs", out var eventHubs) && eventHubs.ValueKind == JsonValueKind.Object
                && eventHubs.TryGetProperty("maxEventBatchSize", out var value))
            {
                if (value.ValueKind != JsonValueKind.Number || !value.TryGetInt32(out max) || max < 1)
                {
                    throw new InvalidOperationException($"{path}: extensions.eventHubs.maxEventBatchSize must be a whole number of at least 1, found {value.GetRawText()}.");
                }
            }

            var source = "extensions.eventHubs.maxEventBatchSize";
            if (!string.IsNullOrEmpty(overrideValue))
            {
                if (!int.TryParse(overrideValue, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out max) || max < 1)
                {
                    throw new InvalidOperationException($"{MaxEventBatchSizeOverride} must be a whole number of at least 1, found '{overrideValue}'.");
                }

                source = MaxEventBatchSizeOverride;
            }

            return new EnvelopeBudget(max).Problem is { } problem
                ? throw new InvalidOperationException(source == MaxEventBatchSizeOverride
                    ? $"{MaxEventBatchSizeOverride} (the app setting over {path}): {problem}"
                    : $"{path}: {problem}")
                : new HostJsonSettings(path, max, source);
        }
    }

    private static string Find(string? appRoot, string workingDirectory)
    {
        if (!string.IsNullOrEmpty(appRoot))
        {
            var candidate = System.IO.Path.Combine(appRoot, "host.json");
            return File.Exists(candidate)
                ? candidate
                : throw new InvalidOperationException($"FUNCTIONS_APP_ROOT_PATH is '{appRoot}' but {candidate} does not exist.");
        }

        for (var directory = new DirectoryInfo(workingDirectory); directory is not null; directory = directory.Parent)
        {
            var candidate = System.IO.Path.Combine(directory.FullName, "host.json");
            if (File.Exists(candidate))
            {
                return candidate;
            }
        }

        throw new InvalidOperationException($"host.json not found in '{workingDirectory}' or its parents; set FUNCTIONS_APP_ROOT_PATH to the function app's root.");
    }
}
