using SensorPipeline.Clients;

namespace SensorPipeline.Functions.Tests;

/// <summary>Bad configuration stops the handler at start-up with a message naming the setting: every rule on the handler
/// in-process (<see cref="InProcessHandler"/>); that such a failure ends the process with a non-zero exit code and the
/// message printed, in <see cref="StartupProcessTests"/>.</summary>
[Trait("Category", "Fast")]
public sealed class StartupTests : IDisposable
{
    private readonly string _appRoot = Directory.CreateTempSubdirectory("sensorpipeline-startup-").FullName;

    [Theory]
    [InlineData("Pipeline__WriteParallelism", "0")]
    [InlineData("Pipeline__MaxAge", "-00:00:01")]
    [InlineData("Pipeline__MaxClockSkew", "-00:00:01")]
    [InlineData("Pipeline__MaxClockSkew", "2.00:00:00")]
    [InlineData("Cosmos__ReadingsTtlSeconds", "0")]
    [InlineData("Cosmos__AccountEndpoint", "")]
    [InlineData("Cosmos__AuthKey", "not base64!")]
    [InlineData("Pipeline__DeviceStateLag", "00:00:11")]
    [InlineData("Pipeline__DeviceStateMarkExpiry", "00:00:01")]
    [InlineData("Pipeline__BulkMinimumDocuments", "0")]
    [InlineData("Cosmos__ConnectionMode", "Sideways", "Cosmos:ConnectionMode")]
    [InlineData("Cosmos__ReadingsContainer", "deadletters", "Cosmos__ReadingsContainer and Cosmos__DeadLettersContainer name the same container")]
    [InlineData("EventHubConnection", "", "EventHubConnection (a connection string, locally) or EventHubConnection__fullyQualifiedNamespace")]
    [InlineData("EventHubConnection", "Endpoint=nonsense", "EventHubConnection is not an Event Hubs connection string")]
    [InlineData("WeatherHubName", "-weather", "WeatherHubName must be an event hub name")]
    [InlineData("Forwarding__MaxConcurrentSends", "0")]
    public void Start_BadSetting_FailsNamingTheSetting(string setting, string value, string? named = null)
    {
        var settings = Settings();
        settings[setting] = value;

        var output = InProcessHandler.StartToFailure(settings);

        Assert.Contains(named ?? setting, output, StringComparison.Ordinal);
    }

    [Fact]
    public void Start_MaxEventBatchSizeTooLargeForBoundedWork_FailsNamingHostJsonAndTheSetting()
    {
        File.WriteAllText(Path.Combine(_appRoot, "host.json"), """{"version":"2.0","extensions":{"eventHubs":{"maxEventBatchSize":5000}}}""");
        var settings = Settings();
        settings["FUNCTIONS_APP_ROOT_PATH"] = _appRoot;

        var output = InProcessHandler.StartToFailure(settings);

        Assert.Contains(Path.Combine(_appRoot, "host.json"), output, StringComparison.Ordinal);
        Assert.Contains("extensions.eventHubs.maxEventBatchSize", output, StringComparison.Ordinal);
    }

    [Fact]
    public void Start_MaxEventBatchSizeOverriddenByAppSettingTooLarge_FailsNamingTheAppSetting()
    {
        // host.json's 2 is fine; the app setting the Functions host honours over it is not.
        File.WriteAllText(Path.Combine(_appRoot, "host.json"), """{"version":"2.0","extensions":{"eventHubs":{"maxEventBatchSize":2}}}""");
        var settings = Settings();
        settings["FUNCTIONS_APP_ROOT_PATH"] = _appRoot;
        settings["AzureFunctionsJobHost__extensions__eventHubs__maxEventBatchSize"] = "100";

        var output = InProcessHandler.StartToFailure(settings);

        Assert.Contains("AzureFunctionsJobHost__extensions__eventHubs__maxEventBatchSize", output, StringComparison.Ordinal);
    }

    [Fact]
    public void Start_NoHostJsonAtTheAppRoot_FailsNamingIt()
    {
        var settings = Settings();
        settings["FUNCTIONS_APP_ROOT_PATH"] = _appRoot;

        var output = InProcessHandler.StartToFailure(settings);

        Assert.Contains("FUNCTIONS_APP_ROOT_PATH", output, StringComparison.Ordinal);
    }

    public void Dispose() => Directory.Delete(_appRoot, recursive: true);

    internal static Dictionary<string, string?> Settings() => new()
    {
        ["FUNCTIONS_CUSTOMHANDLER_PORT"] = "0",
        ["FUNCTIONS_APP_ROOT_PATH"] = RepoLayout.Current.Root,
        // Nothing listens here: every case must fail before the first store call.
        ["Cosmos__AccountEndpoint"] = "https://127.0.0.1:9/",
        ["Cosmos__AuthKey"] = CosmosEmulatorAccount.Key,
        ["Cosmos__CreateIfNotExists"] = "false",
    };
}

/// <summary>A start-up failure ends the real handler process — what the Functions host sees — with a non-zero exit code
/// and the message naming the setting in its output.</summary>
public sealed class StartupProcessTests
{
    [Fact]
    public async Task Start_BadSetting_ProcessExitsNonZeroNamingTheSetting()
    {
        var settings = StartupTests.Settings();
        settings["Pipeline__WriteParallelism"] = "0";

        var (exitCode, output) = await CustomHandlerProcess.RunToFailureAsync(settings);

        Assert.NotEqual(0, exitCode);
        Assert.Contains("Pipeline__WriteParallelism", output, StringComparison.Ordinal);
    }
}
