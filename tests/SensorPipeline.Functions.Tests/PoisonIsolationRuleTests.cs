using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Splitting;
using SensorPipeline.Functions.Invocation;
using SensorPipeline.Functions.Storage;

namespace SensorPipeline.Functions.Tests;

/// <summary>
/// <see cref="PoisonIsolation"/>'s rule in process, its attempt ledger and dead letters in the real emulator (the fault
/// fixture's database, directly). The work run over a subset fails whenever the subset holds a chosen event: the
/// handler's own code failing on that event's content, which no store answer explains. Each test uses its own function
/// name, so the ledger entries (per function and partition) never mix with the handler process's.
/// </summary>
[Collection(FaultGroup.Name)]
public sealed class PoisonIsolationRuleTests(FaultFixture fixture)
{
    [Fact]
    public async Task RunAsync_OneEventBatchThatFailsAlone_DeadLetteredOnceTheThresholdIsReached()
    {
        var function = "IsolationOfOne-" + Guid.NewGuid().ToString("N")[..6];
        using var request = Request(partition: "31", retryCount: 0, events: 1);
        var poison = request.Events[0].Position.SequenceNumber;

        // Below the threshold (3): the failure is the host's to retry. Each attempt in a fresh handler (as after a
        // restart), so only the ledger in the store carries the count.
        for (var attempt = 0; attempt < 2; attempt++)
        {
            using var restarted = Parts();
            await Assert.ThrowsAsync<InvalidOperationException>(() => restarted.Isolation.RunAsync(function, "unit-stage", request, FailingOn(poison), CancellationToken.None));
        }

        // The third failure bisects a batch of one: its one event failed on its own, so it is poison — never "systemic".
        using var parts = Parts();
        var letters = await parts.Isolation.RunAsync(function, "unit-stage", request, FailingOn(poison), CancellationToken.None);

        var letter = Assert.Single(letters);
        Assert.Equal(DeadLetterReason.FailedInIsolation, letter.Reason);
        Assert.Equal(poison, letter.Position.SequenceNumber);
        Assert.NotNull(await fixture.Store.ReadAsync("deadletters", letter.Id, letter.Id));
    }

    [Fact]
    public async Task RunAsync_HostRetryCountFromTransientFailures_FirstOtherFailureRetriedNotBisected()
    {
        using var parts = Parts();
        var function = "IsolationAfterOutage-" + Guid.NewGuid().ToString("N")[..6];
        // The host retried this batch 10 times during a store outage (transient failures, never counted in the ledger).
        using var request = Request(partition: "32", retryCount: 10, events: 3);
        var poison = request.Events[1].Position.SequenceNumber;

        // Its first failure of another kind is one failure, not the eleventh: the host retries the batch whole.
        await Assert.ThrowsAsync<InvalidOperationException>(() => parts.Isolation.RunAsync(function, "unit-stage", request, FailingOn(poison), CancellationToken.None));

        var ledgerId = AttemptLedger.Id(function, "32");
        var ledger = await fixture.Store.ReadAsync("deadletters", ledgerId, ledgerId) ?? throw new Xunit.Sdk.XunitException("no attempt ledger stored");
        Assert.Equal(1, ledger.GetProperty("failures").GetInt32());
    }

    [Fact]
    public async Task RunAsync_ThirdBatchInARowWhoseEveryEventFailsAlone_SystemicNothingDeadLetteredUntilABatchCommits()
    {
        using var parts = Parts();
        var function = "EveryEventFails-" + Guid.NewGuid().ToString("N")[..6];
        var broken = true;
        Task Process(IReadOnlyList<InputEvent> events, DateTimeOffset first, CancellationToken token) =>
            broken ? throw new InvalidOperationException("an environment fault: every event fails") : Task.CompletedTask;

        // Two batches in a row (on two partitions) whose every event fails alone: each could be all poison, so dead-lettered.
        foreach (var partition in new[] { "40", "41" })
        {
            using var request = Request(partition, retryCount: 0, events: 2);
            Assert.Equal(2, (await FailUntilIsolatedAsync(parts.Isolation, function, request, Process)).Count);
        }

        // The third in a row is not the events' fault: systemic — nothing dead-lettered, the batch kept, the alarm raised.
        using var third = Request("42", retryCount: 0, events: 2);
        for (var attempt = 0; attempt < 2; attempt++)
        {
            await Assert.ThrowsAsync<InvalidOperationException>(() => parts.Isolation.RunAsync(function, "unit-stage", third, Process, CancellationToken.None));
        }

        var systemic = await Assert.ThrowsAnyAsync<Exception>(() => parts.Isolation.RunAsync(function, "unit-stage", third, Process, CancellationToken.None));
        Assert.True(Endpoints.InvocationFailures.Classify(systemic, hostCancelled: false).Systemic, systemic.ToString());
        foreach (var e in third.Events)
        {
            var id = $"unit-stage:42:{e.Position.SequenceNumber}";
            Assert.Null(await fixture.Store.ReadAsync("deadletters", id, id));
        }

        // Fixed: the host's next retry commits the batch, and a later batch whose every event fails is one batch's poison again.
        broken = false;
        Assert.Empty(await parts.Isolation.RunAsync(function, "unit-stage", third, Process, CancellationToken.None));
        broken = true;
        using var later = Request("43", retryCount: 0, events: 2);
        Assert.Equal(2, (await FailUntilIsolatedAsync(parts.Isolation, function, later, Process)).Count);
    }

    /// <summary>Runs a batch as the host retries it until the isolation dead-letters its poison (the third attempt).</summary>
    private static async Task<IReadOnlyList<Core.DeadLetters.DeadLetter>> FailUntilIsolatedAsync(PoisonIsolation isolation, string function, InvocationRequest request,
        Func<IReadOnlyList<InputEvent>, DateTimeOffset, CancellationToken, Task> process)
    {
        for (var attempt = 0; attempt < 2; attempt++)
        {
            await Assert.ThrowsAsync<InvalidOperationException>(() => isolation.RunAsync(function, "unit-stage", request, process, CancellationToken.None));
        }

        return await isolation.RunAsync(function, "unit-stage", request, process, CancellationToken.None);
    }

    /// <summary>Work that fails, as a bug on one event's content would, whenever the subset holds <paramref name="poison"/>.</summary>
    private static Func<IReadOnlyList<InputEvent>, DateTimeOffset, CancellationToken, Task> FailingOn(long poison) =>
        (events, _, _) => events.Any(e => e.Position.SequenceNumber == poison)
            ? throw new InvalidOperationException($"cannot process the event at {poison}")
            : Task.CompletedTask;

    /// <summary>The isolation with its real ledger and dead-letter store, wired as the handler wires them.</summary>
    private StoreParts Parts() => new(fixture.StandIn.Endpoint, fixture.Database);

    private static InvocationRequest Request(string partition, int retryCount, int events)
    {
        var first = PipelineDriver.NextSequence(events);
        var now = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();
        var inputs = Enumerable.Range(0, events)
            .Select(i => new InputEvent(new byte[] { 1, 2, (byte)i }, new SourcePosition(partition, first + i, now)))
            .ToArray();
        return new InvocationRequest(null, inputs, partition, retryCount);
    }
}
