using SensorPipeline.LoadGen.Run;

namespace SensorPipeline.LoadGen.Tests;

[Trait("Category", "Fast")]
public class ConnectionStringTests
{
    [Theory]
    [InlineData("Endpoint=sb://127.0.0.1:5672;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=SAS_KEY_VALUE;UseDevelopmentEmulator=true",
        "http://127.0.0.1:5672", "RootManageSharedAccessKey", "SAS_KEY_VALUE", null)] // the emulator form: plain HTTP to its port
    [InlineData("Endpoint=sb://myns.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey=abc+/def==;EntityPath=ingestion",
        "https://myns.servicebus.windows.net", "send", "abc+/def==", "ingestion")] // a real namespace: HTTPS, a key with '=' in it
    public void Parse_EmulatorOrRealNamespace_AddressKeyAndEntityPath(string connection, string baseAddress, string keyName, string key, string? entityPath)
    {
        var c = EventHubsConnection.Parse(connection);

        Assert.Equal(new Uri(baseAddress), c.BaseAddress);
        Assert.Equal(keyName, c.KeyName);
        Assert.Equal(key, c.Key);
        Assert.Equal(entityPath, c.EntityPath);
    }

    [Fact]
    public void MessagesUriFor_EmulatorAddress_HubMessagesUnderThePort()
    {
        var c = EventHubsConnection.Parse("Endpoint=sb://127.0.0.1:5672;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=SAS_KEY_VALUE;UseDevelopmentEmulator=true");

        Assert.Equal(new Uri("http://127.0.0.1:5672/ingestion/messages"), EventSender.MessagesUriFor(c.BaseAddress, "ingestion"));
    }

    [Theory]
    [InlineData("SharedAccessKeyName=a;SharedAccessKey=b", "Endpoint")]
    [InlineData("Endpoint=sb://h/;SharedAccessKeyName=a", "SharedAccessKey")]
    [InlineData("Endpoint=sb://h/;garbage;SharedAccessKeyName=a;SharedAccessKey=b", "without '='")]
    public void Parse_Incomplete_ThrowsNamingWhatIsMissing(string connection, string expected)
    {
        var e = Assert.Throws<FormatException>(() => EventHubsConnection.Parse(connection));

        Assert.Contains(expected, e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Validator_BadConnectionString_NamesTheOptionAndNeverTheKey()
    {
        var result = new SendOptionsValidator().Validate(null, new SendOptions { Connection = "Endpoint=sb://h/;SharedAccessKey=secret-value" });

        Assert.True(result.Failed);
        Assert.Contains("--connection / EventHubConnection", result.FailureMessage, StringComparison.Ordinal);
        Assert.DoesNotContain("secret-value", result.FailureMessage, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(nameof(SendOptions.Rate), "--rate")]
    [InlineData(nameof(SendOptions.ReadingsPerEvent), "--readings-per-event")]
    [InlineData(nameof(SendOptions.Concurrency), "--concurrency")]
    [InlineData(nameof(SendOptions.OversizeBytes), "--oversize-bytes")]
    [InlineData(nameof(SendOptions.PauseFunctions), "--pause-for")]
    public void Validator_BadValue_NamesTheOption(string property, string option)
    {
        var options = new SendOptions { Connection = "Endpoint=sb://127.0.0.1:1;SharedAccessKeyName=a;SharedAccessKey=b;UseDevelopmentEmulator=true" };
        switch (property)
        {
            case nameof(SendOptions.Rate): options.Rate = -1; break;
            case nameof(SendOptions.ReadingsPerEvent): options.ReadingsPerEvent = 0; break;
            case nameof(SendOptions.Concurrency): options.Concurrency = 0; break;
            case nameof(SendOptions.OversizeBytes): options.OversizeBytes = 2_000_000; break;
            default: options.PauseFunctions = ["WeatherProcessor"]; break;
        }

        var result = new SendOptionsValidator().Validate(null, options);

        Assert.True(result.Failed);
        Assert.Contains(option, result.FailureMessage, StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_DefaultsWithAConnection_Pass()
    {
        var result = new SendOptionsValidator().Validate(null, new SendOptions { Connection = "Endpoint=sb://127.0.0.1:1;SharedAccessKeyName=a;SharedAccessKey=b;UseDevelopmentEmulator=true" });

        Assert.True(result.Succeeded, result.FailureMessage);
    }
}
