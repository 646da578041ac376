using System.Text.Json;
using SensorPipeline.Core.Splitting;

namespace SensorPipeline.Functions.Options;

/// <summary>
/// The one host.json value the handler depends on: <c>extensions.eventHubs.maxEventBatchSize</c>, which bounds the
/// largest request the host can send (<see cref="EnvelopeBudget"/>). Read once at start-up; a missing or
/// unusable value stops start-up with a message naming the file and the setting.
/// </summary>
internal sealed record HostJsonSettings(string Path, int MaxEventBatchSize)
{
    /// <summary>The Event Hubs extension's default when host.json does not set it.</summary>
    public const int DefaultMaxEventBatchSize = 100;

    /// <summary>Finds host.json in <paramref name="appRoot"/> (FUNCTIONS_APP_ROOT_PATH) or else in <paramref name="workingDirectory"/> and its parents.</summary>
    public static HostJsonSettings Load(string? appRoot, string workingDirectory)
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

            return new EnvelopeBudget(max).Problem is { } problem
                ? throw new InvalidOperationException($"{path}: {problem}")
                : new HostJsonSettings(path, max);
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
