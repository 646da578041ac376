namespace SensorPipeline.EventHubs.Tests;

/// <summary>Bad configuration stops devhost at start-up with a message naming the file and the setting.</summary>
public sealed class StartupErrorTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    private string AppRoot => Directory.CreateDirectory(Path.Combine(_dir.Path, "app")).FullName;

    private string Data => Path.Combine(_dir.Path, "data");

    private static string RepoHubs => RepoLayout.Current.EventHubsConfig;

    [Theory]
    [InlineData("{\"UserConfig\": {\"NamespaceConfig\": [", "line")]
    [InlineData("{\"UserConfig\":{\"NamespaceConfig\":[{\"Type\":\"EventHub\",\"Name\":\"ns\",\"Entities\":[{\"Name\":\"h\",\"PartitionCount\":\"many\"}]}]}}", "UserConfig.NamespaceConfig[0].Entities[0].PartitionCount")]
    [InlineData("{\"UserConfig\":{\"NamespaceConfig\":[{\"Type\":\"EventHub\",\"Name\":\"ns\",\"Entities\":[{\"PartitionCount\":2}]}]}}", "UserConfig.NamespaceConfig[0].Entities[0].Name")]
    public async Task Start_MalformedHubsFile_ExitsNonZeroNamingFileAndField(string json, string field)
    {
        var hubs = Path.Combine(_dir.Path, "bad-hubs.json");
        await File.WriteAllTextAsync(hubs, json);

        var (exitCode, _, errors) = await RunningDevHost.RunToExitAsync("--app-root", AppRoot, "--data", Data, "--port", "0", "--hubs", hubs);

        Assert.Equal(1, exitCode);
        Assert.Contains(hubs, errors, StringComparison.Ordinal);
        Assert.Contains(field, errors, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Start_DefaultHubsFileMissing_ExitsNonZeroNamingIt()
    {
        var (exitCode, _, errors) = await RunningDevHost.RunToExitAsync("--app-root", AppRoot, "--data", Data, "--port", "0");

        Assert.Equal(1, exitCode);
        Assert.Contains(Path.Combine(AppRoot, "eventhubs.emulator.json"), errors, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("EventHubs:SegmentSizeBytes=10", "EventHubs:SegmentSizeBytes")]
    [InlineData("EventHubs:Durability=Sometimes", "EventHubs:Durability")]
    [InlineData("EventHubs:Sas:Key=", "EventHubs:Sas:Key")]
    public async Task Start_InvalidSetting_ExitsNonZeroNamingIt(string setting, string key)
    {
        var (exitCode, _, errors) = await RunningDevHost.RunToExitAsync("--app-root", AppRoot, "--data", Data, "--port", "0", "--hubs", RepoHubs, "--set", setting);

        Assert.Equal(1, exitCode);
        Assert.Contains(key, errors, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Start_AppRootThatDoesNotExist_ExitsWithUsageNamingIt(bool instance)
    {
        var missing = Path.Combine(_dir.Path, "no-such-app");
        string[] host = ["--app-root", missing, "--data", Data, "--port", "0"];

        var (exitCode, _, errors) = await RunningDevHost.RunToExitAsync(
            instance ? ["instance", "--devhost", "http://127.0.0.1:1/", "--instance-id", "i1", .. host] : host);

        Assert.Equal(2, exitCode);
        Assert.Contains($"--app-root: the directory '{missing}' does not exist.", errors, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("--bogus", "x")]
    [InlineData("--port", "notaport")]
    public async Task Start_BadArguments_ExitsWithUsage(string name, string value)
    {
        var (exitCode, _, errors) = await RunningDevHost.RunToExitAsync("--app-root", AppRoot, "--data", Data, name, value);

        Assert.Equal(2, exitCode);
        Assert.Contains(name, errors, StringComparison.Ordinal);
    }
}
