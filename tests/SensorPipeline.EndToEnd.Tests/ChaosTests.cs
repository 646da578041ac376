using SensorPipeline.Stack.Chaos;

namespace SensorPipeline.EndToEnd.Tests;

/// <summary>
/// The chaos run, CI-sized: every fault of the matrix injected once into the real stack under load (processes killed and
/// frozen, store storms, poison, malformed sends, a full event-log disk, skewed clocks, a systemic store refusal), each
/// phase verified by point reads. The full run is <c>./pipeline chaos</c>.
/// </summary>
[Collection(StackCollections.Commands)]
public sealed class ChaosTests : IDisposable
{
    private readonly TempDirectory _data = new("sensorpipeline-chaos-");

    [Fact]
    public async Task CiSizedRun_EveryFault_NothingAcknowledgedLostNoGoodDataDeadLettered()
    {
        // ~4.5 min alone on 2 cores; its collection runs beside another stack's tests, so the bound leaves room.
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(12));
        // A killed handler's pending-states mark expires in 5 s instead of 30: verify waits for the device states it
        // holds back to be recovered, and two phases kill the handler (devhost kill -9 takes its handler with it).
        var options = new StackOptions
        {
            DataDirectory = _data.Path, DatabaseName = "chaos",
            Environment = new Dictionary<string, string> { ["Pipeline__DeviceStateMarkExpiry"] = "00:00:05" },
        };
        await using var pipeline = await LocalPipeline.StartAsync(RepoLayout.Discover(), options, timeout.Token);
        var chaos = new ChaosOptions { Minutes = 1, Rate = 500, DevicesPerKind = 10, Seed = 20261123 };

        var rows = await ChaosRun.RunAsync(pipeline, chaos, TextWriter.Null, timeout.Token);

        Assert.Equal(ChaosFaults.All.Select(f => f.Name), rows.Select(r => r.Fault));
        Assert.All(rows, row =>
        {
            Assert.True(row.Passed, $"{row.Fault}: {string.Join("; ", row.Problems)}");
            Assert.Equal(0, row.Missing);
            Assert.Equal(0, row.DeadLetteredUnexpected);
            Assert.True(row.Acknowledged > 0, $"{row.Fault}: nothing acknowledged");
        });
        // Each fault really happened: acted on the stack once, or carried by the load.
        Assert.All(rows, row => Assert.True(row.Injected is >= 1 or ChaosRow.WholePhase, $"{row.Fault} was never injected"));
        var poison = rows.Single(r => r.Fault == "poison flood");
        Assert.True(poison.DeadLettersExpected >= 5 && poison.DeadLetteredExpected == poison.DeadLettersExpected);
        // Both systemic faults (every write refused; every write to one container refused with 400/1001): nothing expected
        // in deadletters, and the partitions wait.
        var systemic = rows.Where(r => r.Fault.StartsWith("systemic", StringComparison.Ordinal)).ToList();
        Assert.Equal(2, systemic.Count);
        Assert.All(systemic, row =>
        {
            Assert.Equal(0, row.DeadLettersExpected);
            Assert.True(row.LongestStall >= TimeSpan.FromSeconds(10), $"{row.Fault}: refused for 20 s, yet no partition stalled ({row.LongestStall})");
        });
    }

    public void Dispose() => _data.Dispose();
}
