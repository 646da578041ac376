using Microsoft.Extensions.Options;

namespace SensorPipeline.EventHubs.Http;

/// <summary>How the REST send API checks <c>Authorization: SharedAccessSignature …</c>. Bound from the configuration
/// section <c>EventHubs:Sas</c>; validated at start-up.</summary>
public sealed class SasOptions
{
    /// <summary>The configuration section these options bind from.</summary>
    public const string SectionName = "EventHubs:Sas";

    /// <summary>The shared access key name a token's <c>skn</c> must carry. Default <c>RootManageSharedAccessKey</c>
    /// (the Event Hubs emulator's).</summary>
    public string KeyName { get; set; } = "RootManageSharedAccessKey";

    /// <summary>The key that signs tokens (HMAC-SHA256 over its UTF-8 bytes, as Event Hubs does). Default
    /// <c>SAS_KEY_VALUE</c>, the emulator's well-known key, which the local connection string carries.</summary>
    public string Key { get; set; } = "SAS_KEY_VALUE";

    /// <summary>Accept requests without an <c>Authorization</c> header. Default false: like Event Hubs, every send
    /// needs a valid token, so a sender that works here also authenticates correctly against Azure.</summary>
    public bool AllowAnonymous { get; set; }
}

/// <summary>Checks <see cref="SasOptions"/> at start-up; messages name the configuration key.</summary>
public sealed class SasOptionsValidator : IValidateOptions<SasOptions>
{
    public ValidateOptionsResult Validate(string? name, SasOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var failures = new List<string>();
        if (string.IsNullOrWhiteSpace(options.KeyName))
        {
            failures.Add($"{SasOptions.SectionName}:{nameof(options.KeyName)} must not be empty.");
        }

        if (string.IsNullOrEmpty(options.Key))
        {
            failures.Add($"{SasOptions.SectionName}:{nameof(options.Key)} must not be empty.");
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }
}
