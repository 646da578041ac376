namespace SensorPipeline.EventHubs.Tests.Amqp;

/// <summary>
/// Microsoft's emulator connection string, unchanged (<c>Endpoint=sb://localhost;…;UseDevelopmentEmulator=true</c>, so
/// port 5672), against devhost serving AMQP on 5672 as <c>./pipeline up</c> does: the .NET SDK (loadgen sending) and the
/// Node SDK (properties, what .NET sent, sendBatch, subscribe). All of it runs inside an unprivileged private network
/// namespace (<c>unshare --net --map-root-user</c>, tests/eventhubs-js/emulator-string.sh), where 5672 belongs to that
/// devhost alone: the test never binds 5672 on the machine, and a busy 5672 on the machine does not matter.
/// </summary>
public sealed class MicrosoftEmulatorStringTests
{
    [Fact]
    public async Task MicrosoftEmulatorString_InAPrivateNetworkNamespace_ServesTheDotNetAndNodeSdksOn5672()
    {
        var layout = RepoLayout.Current;
        using var work = new TempDirectory("sensorpipeline-emulator-string-");
        await using var script = await ChildProcess.RunAsync(new ChildProcessOptions
        {
            FileName = "unshare",
            Arguments =
            [
                "--net", "--map-root-user", "bash", layout.File("tests", "eventhubs-js", "emulator-string.sh"),
                layout.RequireBuilt("SensorPipeline.DevHost", "SensorPipeline.DevHost.dll"), layout.RequireBuilt("SensorPipeline.LoadGen", "loadgen.dll"),
                layout.EventHubsConfig, work.Path,
            ],
            WorkingDirectory = layout.Root,
        }, TimeSpan.FromMinutes(2));

        // unshare's own refusal (user namespaces disabled on this machine) is reported as such.
        Assert.True(script.ExitCode == 0, $"unshare --net --map-root-user bash emulator-string.sh exited {script.ExitCode}:\n{script.Output}");
        Assert.Contains("devhost listening on 7071 and 5672 in a private network namespace", script.StandardOutput, StringComparison.Ordinal);
        Assert.Contains("loadgen sent 40 events with Microsoft's emulator string", script.StandardOutput, StringComparison.Ordinal);
        Assert.Contains("# pass 1", script.StandardOutput, StringComparison.Ordinal);
        Assert.Contains("# fail 0", script.StandardOutput, StringComparison.Ordinal);
    }
}
