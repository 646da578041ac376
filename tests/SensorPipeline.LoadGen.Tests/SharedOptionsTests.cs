using System.CommandLine;
using SensorPipeline.LoadGen.Cli;

namespace SensorPipeline.LoadGen.Tests;

/// <summary>Where an option's value comes from: the command line, else the handler's setting, else the default.</summary>
[Trait("Category", "Fast")]
public sealed class SharedOptionsTests
{
    [Fact]
    public void OrEnv_OptionSettingAndDefault_CommandLineWinsThenSettingThenDefault()
    {
        // A setting no other test (running in parallel) reads or writes.
        var setting = "LoadGenTests__Database" + Guid.NewGuid().ToString("N");
        var option = SharedOptions.StoreName("--database", "Database", setting, "fromdefault");
        var command = new RootCommand { option };
        try
        {
            Assert.Equal("fromdefault", SharedOptions.OrEnv(command.Parse(""), option, setting));
            Environment.SetEnvironmentVariable(setting, " ");
            Assert.Equal("fromdefault", SharedOptions.OrEnv(command.Parse(""), option, setting)); // blank counts as unset

            Environment.SetEnvironmentVariable(setting, "fromenv");
            Assert.Equal("fromenv", SharedOptions.OrEnv(command.Parse(""), option, setting));
            Assert.Equal("fromline", SharedOptions.OrEnv(command.Parse("--database fromline"), option, setting));
            // Given explicitly, even the default's own value wins over the setting.
            Assert.Equal("fromdefault", SharedOptions.OrEnv(command.Parse("--database fromdefault"), option, setting));
        }
        finally
        {
            Environment.SetEnvironmentVariable(setting, null);
        }
    }
}
