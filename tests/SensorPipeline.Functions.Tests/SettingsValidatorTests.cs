using SensorPipeline.Functions.Options;

namespace SensorPipeline.Functions.Tests;

/// <summary>The range rules every options validator uses word their messages as the settings are written (a pure unit).</summary>
[Trait("Category", "Fast")]
public sealed class SettingsValidatorTests
{
    [Fact]
    public void Validate_DurationsOutOfRange_EachMessageGivesTheBoundsAsWrittenAndTheValueFound()
    {
        var result = new PipelineOptionsValidator().Validate(null, new PipelineOptions
        {
            DeviceStateLag = TimeSpan.FromMilliseconds(20),
            MaxClockSkew = TimeSpan.FromDays(2),
        });

        Assert.Equal(
            [
                "Pipeline__MaxClockSkew must be from 00:00:00 to 1.00:00:00, found 2.00:00:00.",
                "Pipeline__DeviceStateLag must be from 00:00:00.050 to 00:00:10, found 00:00:00.0200000.",
            ],
            result.Failures);
    }

    [Fact]
    public void Validate_WholeNumberOutOfRange_MessageNamesTheSettingAndTheRange()
    {
        var result = new ForwardingOptionsValidator().Validate(null, new ForwardingOptions
        {
            ConnectionString = "Endpoint=sb://localhost/;SharedAccessKeyName=a;SharedAccessKey=b",
            MaxConcurrentSends = 65,
        });

        Assert.Equal(["Forwarding__MaxConcurrentSends must be from 1 to 64, found 65."], result.Failures);
    }

    [Fact]
    public void Validate_DefaultSettings_Succeeds()
    {
        Assert.True(new PipelineOptionsValidator().Validate(null, new PipelineOptions()).Succeeded);
        Assert.True(new CosmosOptionsValidator().Validate(null, new CosmosOptions { AccountEndpoint = new Uri("https://localhost:8081/") }).Succeeded);
    }
}
