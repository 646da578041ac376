using System.Globalization;
using System.Text.Json;

namespace SensorPipeline.FunctionsHost.Config;

/// <summary>Reads the parts of host.json devhost honours; defaults and limits are the Event Hubs extension's
/// (EventHubOptions.cs) and the Functions host's (functionTimeout, customHandler).</summary>
internal static class HostJsonReader
{
    /// <summary>functionTimeout default on Flex Consumption, Premium and Dedicated plans: 30 minutes.</summary>
    public static readonly TimeSpan DefaultFunctionTimeout = TimeSpan.FromMinutes(30);

    /// <summary>Where the Event Hubs extension's settings sit in host.json, prefixed to every setting an error names.</summary>
    private const string EventHubsPath = "extensions.eventHubs.";

    public static HostSettings Read(JsonFile file, string appRoot)
    {
        var root = file.Root;
        var eventHubs = ReadEventHubs(file, root);
        var retry = file.Object(root, "retry", "retry") is { } retryElement ? ReadRetry(file, retryElement, "retry") : null;
        var timeout = ReadFunctionTimeout(file, root);
        var handler = ReadHandler(file, root, appRoot);
        return new HostSettings(eventHubs, retry, timeout, handler);
    }

    private static EventHubsHostSettings ReadEventHubs(JsonFile file, JsonElement root)
    {
        var d = EventHubsHostSettings.Default;
        var extensions = file.Object(root, "extensions", "extensions");
        var section = extensions is { } e ? file.Object(e, "eventHubs", "extensions.eventHubs") : null;
        if (section is not { } s)
        {
            return d;
        }

        var max = file.Int(s, "maxEventBatchSize", EventHubsPath + "maxEventBatchSize") ?? d.MaxEventBatchSize;
        var min = file.Int(s, "minEventBatchSize", EventHubsPath + "minEventBatchSize") ?? d.MinEventBatchSize;
        var wait = file.Duration(s, "maxWaitTime", EventHubsPath + "maxWaitTime") ?? d.MaxWaitTime;
        var frequency = file.Int(s, "batchCheckpointFrequency", EventHubsPath + "batchCheckpointFrequency") ?? d.BatchCheckpointFrequency;
        var prefetch = file.Int(s, "prefetchCount", EventHubsPath + "prefetchCount") ?? d.PrefetchCount;
        if (max < 1)
        {
            throw file.Error(EventHubsPath + "maxEventBatchSize", $"must be at least 1, found {max}");
        }

        if (min < 1 || min > max)
        {
            throw file.Error(EventHubsPath + "minEventBatchSize", $"must be from 1 to maxEventBatchSize ({max}), found {min}");
        }

        if (wait < TimeSpan.Zero || wait > TimeSpan.FromMinutes(10))
        {
            throw file.Error(EventHubsPath + "maxWaitTime", $"must be from 00:00:00 to 00:10:00, found {wait}");
        }

        if (frequency < 1)
        {
            throw file.Error(EventHubsPath + "batchCheckpointFrequency", $"must be at least 1, found {frequency}");
        }

        if (prefetch < 0)
        {
            throw file.Error(EventHubsPath + "prefetchCount", $"must be at least 0, found {prefetch}");
        }

        var (type, enqueuedTime) = ReadInitialOffset(file, s, d);
        var (update, expiration, target) = ReadScaleOut(file, s, d);
        return new EventHubsHostSettings(max, min, wait, frequency, prefetch, type, enqueuedTime, update, expiration, target);
    }

    private static (InitialOffsetType Type, DateTimeOffset? EnqueuedTime) ReadInitialOffset(JsonFile file, JsonElement s, EventHubsHostSettings d)
    {
        var type = d.InitialOffsetType;
        DateTimeOffset? enqueuedTime = null;
        if (file.Object(s, "initialOffsetOptions", EventHubsPath + "initialOffsetOptions") is { } offset)
        {
            var typeText = file.String(offset, "type", EventHubsPath + "initialOffsetOptions.type");
            if (typeText is not null && !Enum.TryParse(typeText, ignoreCase: true, out type))
            {
                throw file.Error(EventHubsPath + "initialOffsetOptions.type", $"must be fromStart, fromEnd or fromEnqueuedTime, found \"{typeText}\"");
            }

            var timeText = file.String(offset, "enqueuedTimeUtc", EventHubsPath + "initialOffsetOptions.enqueuedTimeUtc");
            if (timeText is not null)
            {
                enqueuedTime = DateTimeOffset.TryParse(timeText, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal | DateTimeStyles.AdjustToUniversal, out var parsed)
                    ? parsed
                    : throw file.Error(EventHubsPath + "initialOffsetOptions.enqueuedTimeUtc", $"expected a UTC date and time, found \"{timeText}\"");
            }

            if (type == InitialOffsetType.FromEnqueuedTime && enqueuedTime is null)
            {
                throw file.Error(EventHubsPath + "initialOffsetOptions.enqueuedTimeUtc", "is required when type is fromEnqueuedTime");
            }
        }

        return (type, enqueuedTime);
    }

    // The extension's EventHubOptions exposes these three for host.json; the intervals pass to the processor as is.
    private static (TimeSpan Update, TimeSpan Expiration, int? Target) ReadScaleOut(JsonFile file, JsonElement s, EventHubsHostSettings d)
    {
        var update = file.Duration(s, "loadBalancingUpdateInterval", EventHubsPath + "loadBalancingUpdateInterval") ?? d.LoadBalancingUpdateInterval;
        var expiration = file.Duration(s, "partitionOwnershipExpirationInterval", EventHubsPath + "partitionOwnershipExpirationInterval") ?? d.PartitionOwnershipExpirationInterval;
        var target = file.Int(s, "targetUnprocessedEventThreshold", EventHubsPath + "targetUnprocessedEventThreshold");
        if (update <= TimeSpan.Zero)
        {
            throw file.Error(EventHubsPath + "loadBalancingUpdateInterval", $"must be more than 00:00:00, found {update}");
        }

        if (expiration <= update)
        {
            throw file.Error(EventHubsPath + "partitionOwnershipExpirationInterval", $"must be more than loadBalancingUpdateInterval ({update}), found {expiration}");
        }

        if (target is < 1)
        {
            throw file.Error(EventHubsPath + "targetUnprocessedEventThreshold", $"must be at least 1, found {target}");
        }

        return (update, expiration, target);
    }

    public static RetryPolicy ReadRetry(JsonFile file, JsonElement retry, string field)
    {
        var strategyText = file.String(retry, "strategy", field + ".strategy")
            ?? throw file.Error(field + ".strategy", "is required (fixedDelay or exponentialBackoff)");
        if (!Enum.TryParse(strategyText, ignoreCase: true, out RetryStrategy strategy))
        {
            throw file.Error(field + ".strategy", $"must be fixedDelay or exponentialBackoff, found \"{strategyText}\"");
        }

        var count = file.Int(retry, "maxRetryCount", field + ".maxRetryCount")
            ?? throw file.Error(field + ".maxRetryCount", "is required (-1 retries forever)");
        if (count < -1)
        {
            throw file.Error(field + ".maxRetryCount", $"must be -1 (forever) or at least 0, found {count}");
        }

        if (strategy == RetryStrategy.FixedDelay)
        {
            var delay = file.Duration(retry, "delayInterval", field + ".delayInterval")
                ?? throw file.Error(field + ".delayInterval", "is required for fixedDelay");
            return delay < TimeSpan.Zero
                ? throw file.Error(field + ".delayInterval", "must not be negative")
                : new RetryPolicy(strategy, count, delay, TimeSpan.Zero, TimeSpan.Zero);
        }

        var minimum = file.Duration(retry, "minimumInterval", field + ".minimumInterval")
            ?? throw file.Error(field + ".minimumInterval", "is required for exponentialBackoff");
        var maximum = file.Duration(retry, "maximumInterval", field + ".maximumInterval")
            ?? throw file.Error(field + ".maximumInterval", "is required for exponentialBackoff");
        if (minimum < TimeSpan.Zero || maximum < minimum)
        {
            throw file.Error(field + ".minimumInterval", $"must be from 0 to maximumInterval ({maximum}), found {minimum}");
        }

        return new RetryPolicy(strategy, count, TimeSpan.Zero, minimum, maximum);
    }

    private static TimeSpan? ReadFunctionTimeout(JsonFile file, JsonElement root)
    {
        var text = file.String(root, "functionTimeout", "functionTimeout");
        if (text is null)
        {
            return DefaultFunctionTimeout;
        }

        if (text.Trim() == "-1")
        {
            return null;
        }

        return TimeSpan.TryParse(text, CultureInfo.InvariantCulture, out var timeout) && timeout > TimeSpan.Zero
            ? timeout
            : throw file.Error("functionTimeout", $"expected a positive duration like \"00:10:00\" or \"-1\", found \"{text}\"");
    }

    private static CustomHandlerDescription ReadHandler(JsonFile file, JsonElement root, string appRoot)
    {
        const string P = "customHandler.description";
        var description = (file.Object(root, "customHandler", "customHandler") is { } handler ? file.Object(handler, "description", P) : null)
            ?? throw file.Error(P, "is required: devhost runs the function app as a custom handler");
        var executable = file.String(description, "defaultExecutablePath", EventHubsPath + ".defaultExecutablePath")
            ?? throw file.Error(EventHubsPath + ".defaultExecutablePath", "is required");
        var workingDirectory = file.String(description, "workingDirectory", EventHubsPath + ".workingDirectory") is { Length: > 0 } wd
            ? System.IO.Path.GetFullPath(wd, appRoot)
            : appRoot;

        // The host expands %VAR% in the executable path and arguments from the environment, and uses the executable
        // from the working directory when it exists there (else it is looked up on PATH, e.g. "node").
        executable = Environment.ExpandEnvironmentVariables(executable);
        var candidate = System.IO.Path.GetFullPath(executable, workingDirectory);
        if (File.Exists(candidate))
        {
            executable = candidate;
        }

        var arguments = new List<string>();
        arguments.AddRange(StringArray(file, description, "arguments", EventHubsPath + ".arguments"));
        if (file.String(description, "defaultWorkerPath", EventHubsPath + ".defaultWorkerPath") is { Length: > 0 } workerPath)
        {
            arguments.Add(System.IO.Path.GetFullPath(Environment.ExpandEnvironmentVariables(workerPath), workingDirectory));
        }

        arguments.AddRange(StringArray(file, description, "workerArguments", EventHubsPath + ".workerArguments"));
        return new CustomHandlerDescription(executable, arguments, workingDirectory);
    }

    private static List<string> StringArray(JsonFile file, JsonElement parent, string name, string field)
    {
        if (!JsonFile.TryGet(parent, name, out var value))
        {
            return [];
        }

        if (value.ValueKind != JsonValueKind.Array)
        {
            throw file.Error(field, $"expected an array of strings, found {value.ValueKind}");
        }

        var list = new List<string>();
        var index = 0;
        foreach (var item in value.EnumerateArray())
        {
            list.Add(item.ValueKind == JsonValueKind.String
                ? Environment.ExpandEnvironmentVariables(item.GetString()!)
                : throw file.Error($"{field}[{index}]", $"expected a string, found {item.ValueKind}"));
            index++;
        }

        return list;
    }
}
