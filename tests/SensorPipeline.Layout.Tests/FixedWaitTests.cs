namespace SensorPipeline.Layout.Tests;

/// <summary>No test waits a fixed time for a result: it polls through <c>Eventually</c> or awaits a signal, so it
/// neither passes on an answer that has not arrived yet nor waits longer than it must.</summary>
public sealed class FixedWaitTests
{
    [Fact]
    public void In_TestCode_EveryFixedWaitIsAllowedWithItsReason()
    {
        var found = FixedWaits.Under(RepoLayout.Current.Root, "tests");

        var unexplained = found.GroupBy(wait => wait[..wait.IndexOf(": ", StringComparison.Ordinal)], StringComparer.Ordinal)
            .Where(file => !FixedWaits.Allowed.TryGetValue(file.Key, out var allowed) || file.Count() > allowed.Count)
            .SelectMany(file => file)
            .ToList();
        Assert.True(unexplained.Count == 0, "fixed waits in tests (wait through Eventually or a signal instead, or add the "
            + "file's wait to FixedWaits.Allowed with why it gates no assertion):\n" + string.Join("\n", unexplained));
    }

    [Fact]
    public void Allowed_EveryEntry_StillCountsTheFixedWaitsOfItsFile()
    {
        var found = FixedWaits.Under(RepoLayout.Current.Root, "tests")
            .GroupBy(wait => wait[..wait.IndexOf(": ", StringComparison.Ordinal)], StringComparer.Ordinal)
            .ToDictionary(file => file.Key, file => file.Count(), StringComparer.Ordinal);

        var stale = FixedWaits.Allowed.Where(allowed => found.GetValueOrDefault(allowed.Key) != allowed.Value.Count)
            .Select(allowed => $"{allowed.Key}: {allowed.Value.Count} allowed, {found.GetValueOrDefault(allowed.Key)} found")
            .ToList();
        Assert.True(stale.Count == 0, "allowed fixed waits that no longer match their file (correct or remove them):\n" + string.Join("\n", stale));
    }

    [Fact]
    public void In_DelaySleepAndEventuallyCalls_OnlyTheFixedWaitsNamed()
    {
        const string Source = """
            class C
            {
                async Task Gated() { await Task.Delay(500); Assert.Empty(records); }
                void Blocking() { System.Threading.Thread.Sleep(100); }
                async Task Polled() => await Eventually.UntilAsync(() => done, "done");
                async Task Signalled() => await signal.Task.WaitAsync(TimeSpan.FromSeconds(30));
            }
            """;

        var found = FixedWaits.In("t.cs", Source).ToList();

        Assert.Equal(["t.cs: Gated", "t.cs: Blocking"], found);
    }
}
