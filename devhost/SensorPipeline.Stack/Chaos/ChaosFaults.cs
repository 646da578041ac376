namespace SensorPipeline.Stack.Chaos;

/// <summary>The fault matrix, in the order a run goes through it.</summary>
public static class ChaosFaults
{
    /// <summary>How long a systemic fault lasts: long enough for several retries with the host's back-off, each refused.</summary>
    public static readonly TimeSpan SystemicFault = TimeSpan.FromSeconds(20);

    private static readonly IReadOnlyList<string> NoArguments = [];

    public static IReadOnlyList<ChaosFault> All { get; } =
    [
        new("devhost kill -9", "devhost (Event Hubs + Functions host) killed, restarted on the same data",
            static (c, t) => c.Pipeline.CrashAndRestartDevHostAsync(t), _ => NoArguments),
        new("handler kill -9", "the custom handler killed; devhost starts it again",
            KillHandlerAsync, _ => NoArguments),
        new("store kill -9", "the Cosmos DB emulator killed, restarted on the same data",
            static (c, t) => c.Pipeline.CrashAndRestartCosmosAsync(t), _ => NoArguments),
        new("storage kill -9", "azurite (AzureWebJobsStorage: ownership and checkpoints) killed, restarted on the same data",
            static (c, t) => c.Pipeline.CrashAndRestartAzuriteAsync(t), _ => NoArguments),
        new("store freeze", "the Cosmos DB emulator stopped (SIGSTOP) for 5–30 s, then continued",
            FreezeStoreAsync, _ => NoArguments),
        new("store 429 storm", "80% of store requests answered 429 (retry after 500 ms) for 4–12 s",
            static (c, t) => StormAsync(c, new InjectedStoreFault(429, Seconds(c, 4, 12), Probability: 0.8, RetryAfterMs: 500), t), _ => NoArguments),
        new("store 503 storm", "60% of store requests answered 503 for 4–12 s",
            static (c, t) => StormAsync(c, new InjectedStoreFault(503, Seconds(c, 4, 12), Probability: 0.6), t), _ => NoArguments),
        new("poison flood", "random bytes, truncated protobuf, out-of-range readings, forged envelopes on a processor hub, an oversize reading",
            null, static n => ["--poison", Count(n * 3), "--truncated", Count(n * 3), "--out-of-range", Count(n * 3), "--forged", Count(n * 3),
                "--oversize", Count(n), "--inject-every", "3"], ExpectsDeadLetters: true),
        new("malformed sends", "oversize bodies, malformed JSON batches, out-of-range numbers, forged signatures (each must get its 4xx)",
            null, static n => ["--malformed-sends", Count(n * 8), "--inject-every", "2"]),
        new("event log disk full", "the event log's storage fails writes as a full disk would for 3–10 s (a fault seam, not the real disk)",
            DiskFullAsync, _ => NoArguments),
        new("store disk full", "the Cosmos DB emulator's log fails writes as a full disk would for 3–10 s (a fault seam): writes 503, nothing of them visible",
            StoreDiskFullAsync, _ => NoArguments),
        new("clocks 4 min ahead", "every device's clock 4 minutes fast, just inside the 5 minutes a reading may lead its enqueue and still win",
            null, static _ => ["--clock-skew=4m"]),
        new("clocks 1 h behind", "every device's clock an hour slow: staleness counts from enqueue, so all stay live; device order is by observed time",
            null, static _ => ["--clock-skew=-1h"]),
        new("systemic: store refuses writes", "every store write answered 403 (sub-status 5301: no role) for 20 s: nothing may be dead-lettered",
            static (c, t) => StormAsync(c, new InjectedStoreFault(403, SystemicFault.TotalSeconds, WritesOnly: true, SubStatus: 5301), t), _ => NoArguments),
        new("systemic: readings refuses every write", "every write to readings answered 400 (sub-status 1001: recreated with another partition-key path) for 20 s while the other containers answer: nothing may be dead-lettered",
            static (c, t) => StormAsync(c, new InjectedStoreFault(400, SystemicFault.TotalSeconds, WritesOnly: true, SubStatus: 1001, Container: "readings"), t), _ => NoArguments),
    ];

    private static async Task KillHandlerAsync(FaultContext context, CancellationToken cancellationToken)
    {
        var killed = await context.Pipeline.KillHandlerAsync(cancellationToken);
        // Over once devhost runs a new handler.
        while ((await context.Pipeline.GetFunctionsStatusAsync(cancellationToken)).HandlerPid is not { } pid || pid == killed)
        {
            await Task.Delay(TimeSpan.FromMilliseconds(100), cancellationToken);
        }
    }

    private static async Task FreezeStoreAsync(FaultContext context, CancellationToken cancellationToken)
    {
        // Freezes as long as 30 s in a full run; a short phase keeps them shorter so the load outlasts them.
        var longest = Math.Clamp(context.PhaseLoad.TotalSeconds / 2, 5, 30);
        context.Pipeline.Cosmos.Freeze();
        try
        {
            await Task.Delay(TimeSpan.FromSeconds(5 + (context.Random.NextDouble() * (longest - 5))), cancellationToken);
        }
        finally
        {
            context.Pipeline.Cosmos.Thaw();
        }
    }

    private static async Task StormAsync(FaultContext context, InjectedStoreFault fault, CancellationToken cancellationToken)
    {
        await context.Pipeline.InjectStoreFaultAsync(fault, cancellationToken);
        await Task.Delay(TimeSpan.FromSeconds(fault.Seconds), cancellationToken);
    }

    private static Task DiskFullAsync(FaultContext context, CancellationToken cancellationToken) =>
        DiskFullForAWhileAsync(context, context.Pipeline.SetEventLogDiskFullAsync, cancellationToken);

    private static Task StoreDiskFullAsync(FaultContext context, CancellationToken cancellationToken) =>
        DiskFullForAWhileAsync(context, context.Pipeline.SetStoreDiskFullAsync, cancellationToken);

    /// <summary>A simulated full disk for 3–10 s through <paramref name="setDiskFull"/>, always turned off again.</summary>
    private static async Task DiskFullForAWhileAsync(FaultContext context, Func<bool, CancellationToken, Task> setDiskFull, CancellationToken cancellationToken)
    {
        await setDiskFull(true, cancellationToken);
        try
        {
            await Task.Delay(TimeSpan.FromSeconds(Seconds(context, 3, 10)), cancellationToken);
        }
        finally
        {
            await setDiskFull(false, CancellationToken.None);
        }
    }

    // Between min and max seconds, and never longer than half the phase's load.
    private static double Seconds(FaultContext context, double min, double max)
    {
        var longest = Math.Max(min, Math.Min(max, context.PhaseLoad.TotalSeconds / 2));
        return Math.Round(min + (context.Random.NextDouble() * (longest - min)), 1);
    }

    private static string Count(int value) => value.ToString(CultureInfo.InvariantCulture);
}
