using System.Diagnostics;

namespace SensorPipeline.FunctionsHost.Tests;

/// <summary>The /proc readings <c>bench scale</c> builds its cold start on: a process's start time from its stat line.</summary>
public sealed class ProcessCpuTests
{
    [Fact]
    public void ParseStartTicks_ReadsField22_AfterACommandNameWithSpacesAndParentheses()
    {
        // Fields 3 to 21 as 3..21 (field 14 utime, 15 stime), field 22 starttime = 987654, then more.
        var fields = string.Join(' ', Enumerable.Range(3, 19).Select(i => i.ToString(System.Globalization.CultureInfo.InvariantCulture)));
        var stat = $"4242 (a (b) c) {fields} 987654 100 200";

        Assert.Equal(987654, ProcessCpu.ParseStartTicks(stat));
        Assert.Equal(14 + 15, ProcessCpu.ParseTicks(stat));
        Assert.Throws<FormatException>(() => ProcessCpu.ParseStartTicks("4242 (short) S 1 2"));
    }

    [Fact]
    public async Task ReadAgeSeconds_GrowsWithTheProcess_AndIsNullOnceItIsGone()
    {
        using var sleeper = Process.Start(new ProcessStartInfo("sleep", "30") { UseShellExecute = false })!;
        var first = ProcessCpu.ReadAgeSeconds(sleeper.Id);
        await Task.Delay(TimeSpan.FromSeconds(1));
        var second = ProcessCpu.ReadAgeSeconds(sleeper.Id);

        Assert.NotNull(first);
        Assert.True(first >= 0, $"age {first} s");
        // Clock ticks are 10 ms: a second later the age has grown by about a second (a loaded machine only adds).
        Assert.True(second - first >= 0.95, $"age {first} s, then {second} s");

        sleeper.Kill();
        await sleeper.WaitForExitAsync();
        Assert.Null(ProcessCpu.ReadAgeSeconds(sleeper.Id));
    }
}
