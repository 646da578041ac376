using System.CommandLine;

namespace SensorPipeline.CommandLine.Tests;

/// <summary>The shared option types: the one syntax of each, and a bad value refused naming the option.</summary>
[Trait("Category", "Fast")]
public sealed class OptionTypeTests
{
    [Theory]
    [InlineData("500ms", 0.5)]
    [InlineData("40s", 40)]
    [InlineData("1.5s", 1.5)]
    [InlineData("2m", 120)]
    [InlineData("1h", 3600)]
    [InlineData("7d", 604_800)]
    [InlineData("00:05:00", 300)]
    [InlineData("1.00:00:00", 86_400)]
    [InlineData("0s", 0)]
    public void TryParse_Duration_ReadsEachForm(string text, double seconds)
    {
        Assert.True(Durations.TryParse(text, out var value));
        Assert.Equal(TimeSpan.FromSeconds(seconds), value);
    }

    [Theory]
    [InlineData("")]
    [InlineData("soon")]
    [InlineData("5")]
    [InlineData("-5s")]
    [InlineData("5x")]
    [InlineData("1e400s")]
    public void TryParse_NotADuration_False(string text) => Assert.False(Durations.TryParse(text, out _));

    [Theory]
    [InlineData("-10m", -600)]
    [InlineData("+2m", 120)]
    [InlineData("30s", 30)]
    public void TryParseSigned_ClockBehindOrAhead_Read(string text, double seconds)
    {
        Assert.True(Durations.TryParseSigned(text, out var value));
        Assert.Equal(TimeSpan.FromSeconds(seconds), value);
    }

    [Theory]
    [InlineData("100", 100)]
    [InlineData("100B", 100)]
    [InlineData("64KiB", 65_536)]
    [InlineData("1MiB", 1_048_576)]
    [InlineData("1MB", 1_000_000)]
    [InlineData("1.5KB", 1_500)]
    public void TryParse_Size_ReadsEachForm(string text, long bytes)
    {
        Assert.True(Sizes.TryParse(text, out var value));
        Assert.Equal(bytes, value);
    }

    [Theory]
    [InlineData("big")]
    [InlineData("-1")]
    [InlineData("0.5")]
    [InlineData("1QB")]
    public void TryParse_NotASize_False(string text) => Assert.False(Sizes.TryParse(text, out _));

    [Theory]
    [InlineData("2500", 2500)]
    [InlineData("0.5", 0.5)]
    [InlineData("100k", 100_000)]
    [InlineData("1M", 1_000_000)]
    [InlineData("600/s", 600)]
    public void TryParse_Rate_ReadsEachForm(string text, double perSecond)
    {
        Assert.True(Rates.TryParse(text, out var value));
        Assert.Equal(perSecond, value);
    }

    [Theory]
    [InlineData("0")]
    [InlineData("-5")]
    [InlineData("fast")]
    public void TryParse_NotARate_False(string text) => Assert.False(Rates.TryParse(text, out _));

    [Fact]
    public void Parse_RepeatedSet_KeysIgnoreCaseAndTheLaterWins()
    {
        var set = Settings.Option();
        var parse = new RootCommand { set }.Parse(["--set", "A:B=c=d", "--set", "a:b=e", "--set", "X=1"]);

        Assert.Empty(parse.Errors);
        var settings = parse.GetValue(set)!;
        Assert.Equal("e", settings["A:B"]);
        Assert.Equal("1", settings["x"]);
        Assert.Equal(2, settings.Count);
    }

    [Fact]
    public void Parse_SetWithEnvironmentVariableKey_ConfigurationKey()
    {
        var set = Settings.Option();
        var parse = new RootCommand { set }.Parse(["--set", "Cosmos__AccountEndpoint=https://127.0.0.1:8081/", "--set", "explorer__MaxTime=00:00:02"]);

        Assert.Empty(parse.Errors);
        var settings = parse.GetValue(set)!;
        Assert.Equal("https://127.0.0.1:8081/", settings["Cosmos:AccountEndpoint"]);
        Assert.Equal("00:00:02", settings["Explorer:MaxTime"]);
        Assert.Equal(2, settings.Count);
    }

    [Theory]
    [InlineData("--set", "novalue", "--set: 'novalue' is not Key=Value.")]
    [InlineData("--set", "=v", "--set: '=v' is not Key=Value.")]
    [InlineData("--wait", "soon", "--wait: 'soon' is not a duration")]
    [InlineData("--wait", "-1s", "--wait: '-1s' is not a duration")]
    [InlineData("--body", "2MiB", "--body: '2MiB' must be from 1 to 1,048,576 bytes.")]
    [InlineData("--body", "lots", "--body: 'lots' is not a size")]
    [InlineData("--rate", "0", "--rate: '0' is not a rate above 0")]
    [InlineData("--rate", "2M", "--rate: '2M' is above the maximum")]
    [InlineData("--port", "65536", "--port: '65536' is not a port number from 0 to 65535.")]
    [InlineData("--port", "-1", "--port")]
    public void Parse_BadValue_ErrorNamesTheOption(string option, string value, string expected)
    {
        var command = new RootCommand().With(Settings.Option(), Durations.Option("--wait", "a wait", TimeSpan.FromSeconds(1)),
            Sizes.Option("--body", "a body", 100, minimum: 1, maximum: 1 << 20), Rates.Optional("--rate", "a rate", maximum: 1_000_000), Ports.Option(0));

        var parse = command.Parse([option, value]);

        Assert.Contains(parse.Errors, e => e.Message.StartsWith(expected, StringComparison.Ordinal));
    }

    [Fact]
    public void Run_WrongForm_PrintsEachErrorWithTheProgramNameAndReturnsUsage()
    {
        var ran = false;
        var root = new RootCommand().With(Durations.Option("--wait", "a wait", TimeSpan.FromSeconds(1)));
        root.SetAction(_ => ran = true);
        var error = new StringWriter();

        var code = CommandLineProgram.Run("prog", root, ["--wait", "soon", "--bogus"], new InvocationConfiguration { Error = error, Output = new StringWriter() });

        Assert.Equal(ExitCodes.Usage, code);
        Assert.False(ran);
        Assert.Contains("prog: --wait: 'soon' is not a duration", error.ToString(), StringComparison.Ordinal);
        Assert.Contains("prog: Unrecognized command or argument '--bogus'", error.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public void Run_Help_PrintsTheOptionsAndReturnsZeroWithoutRunning()
    {
        var ran = false;
        var root = new RootCommand().With(Durations.Option("--wait", "How long to wait.", TimeSpan.FromSeconds(1)));
        root.SetAction(_ => ran = true);
        var output = new StringWriter();

        var code = CommandLineProgram.Run("prog", root, ["--help"], new InvocationConfiguration { Output = output, Error = new StringWriter() });

        Assert.Equal(ExitCodes.Ok, code);
        Assert.False(ran);
        Assert.Contains("--wait", output.ToString(), StringComparison.Ordinal);
        Assert.Contains("How long to wait.", output.ToString(), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("--eventhubs", "my-namespace", null, "my-namespace.servicebus.windows.net")]
    [InlineData("--eventhubs", "my-namespace.servicebus.windows.net", null, "my-namespace.servicebus.windows.net")]
    [InlineData("--eventhubs", "Endpoint=sb://x.servicebus.windows.net/;SharedAccessKeyName=k;SharedAccessKey=v", "Endpoint=sb://x.servicebus.windows.net/;SharedAccessKeyName=k;SharedAccessKey=v", null)]
    [InlineData("--storage", "mystorage01", null, "mystorage01.blob.core.windows.net")]
    [InlineData("--storage", "DefaultEndpointsProtocol=https;AccountName=a;AccountKey=b", "DefaultEndpointsProtocol=https;AccountName=a;AccountKey=b", null)]
    [InlineData("--cosmos", "my-cosmos", null, "my-cosmos.documents.azure.com")]
    public void AzureResources_ConnectionStringOrName_ReadAsTheOneItIs(string option, string text, string? connectionString, string? host)
    {
        var parsed = Parse(option, text);
        Assert.Empty(parsed.Errors);
        Assert.Equal(new AzureResource(connectionString, host), parsed.Value);
    }

    [Theory]
    [InlineData("--eventhubs", "ns")] // too short for a namespace
    [InlineData("--storage", "Upper_Case")]
    [InlineData("--cosmos", "https://")]
    public void AzureResources_NeitherForm_RefusedNamingTheOption(string option, string text) =>
        Assert.Contains(Parse(option, text).Errors, e => e.StartsWith(option + ": '" + text + "'", StringComparison.Ordinal));

    private static (AzureResource? Value, IReadOnlyList<string> Errors) Parse(string name, string text)
    {
        var option = name switch { "--eventhubs" => AzureResources.EventHubs(), "--storage" => AzureResources.Storage(), _ => AzureResources.Cosmos() };
        var command = new RootCommand { option };
        var result = command.Parse([name, text]);
        return (result.Errors.Count == 0 ? result.GetValue(option) : null, result.Errors.Select(e => e.Message).ToList());
    }
}
