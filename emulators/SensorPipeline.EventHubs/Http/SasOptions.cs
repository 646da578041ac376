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

    /// <summary>A rule that may only send, as a namespace's Send-only policy. Default <c>SendOnly</c>.</summary>
    public string SendOnlyKeyName { get; set; } = "SendOnly";

    /// <summary>Its key. Default <c>SEND_ONLY_KEY_VALUE</c> (well known, local only).</summary>
    public string SendOnlyKey { get; set; } = "SEND_ONLY_KEY_VALUE";

    /// <summary>A rule that may only receive, as a namespace's Listen-only policy. Default <c>ListenOnly</c>.</summary>
    public string ListenOnlyKeyName { get; set; } = "ListenOnly";

    /// <summary>Its key. Default <c>LISTEN_ONLY_KEY_VALUE</c> (well known, local only).</summary>
    public string ListenOnlyKey { get; set; } = "LISTEN_ONLY_KEY_VALUE";

    /// <summary>The rules by key name: <see cref="KeyName"/> has Manage (so Send and Listen), the other two one right each.</summary>
    internal IEnumerable<(string KeyName, string Key, SasRights Rights)> Rules =>
    [
        (KeyName, Key, SasRights.Manage | SasRights.Send | SasRights.Listen),
        (SendOnlyKeyName, SendOnlyKey, SasRights.Send),
        (ListenOnlyKeyName, ListenOnlyKey, SasRights.Listen),
    ];

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

        foreach (var (setting, value) in new[]
        {
            (nameof(options.SendOnlyKeyName), options.SendOnlyKeyName), (nameof(options.SendOnlyKey), options.SendOnlyKey),
            (nameof(options.ListenOnlyKeyName), options.ListenOnlyKeyName), (nameof(options.ListenOnlyKey), options.ListenOnlyKey),
        })
        {
            if (string.IsNullOrWhiteSpace(value))
            {
                failures.Add($"{SasOptions.SectionName}:{setting} must not be empty.");
            }
        }

        if (options.Rules.Select(r => r.KeyName).Distinct(StringComparer.Ordinal).Count() != 3)
        {
            failures.Add($"{SasOptions.SectionName}: {nameof(options.KeyName)}, {nameof(options.SendOnlyKeyName)} and {nameof(options.ListenOnlyKeyName)} must differ.");
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }
}

/// <summary>What a shared access rule allows, as Event Hubs' authorization rules.</summary>
[Flags]
public enum SasRights
{
    None = 0,
    Send = 1,
    Listen = 2,
    Manage = 4,
}
