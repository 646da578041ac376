using SensorPipeline.Functions.Storage;

namespace SensorPipeline.Functions.Tests;

/// <summary>
/// <see cref="StoreCanary"/> while a container goes bad: its known-good writes go through <see cref="FaultProxy"/> to the
/// real emulator, the judged write is the test's own (it answers what the scenario needs). A verdict "this document's
/// refusal" needs a known-good write taken after the refusal it judges; a probe that began earlier proves nothing about it.
/// </summary>
[Collection(FaultGroup.Name)]
public sealed class StoreCanaryTests(FaultFixture fixture)
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(30);

    private static readonly WriteOutcome OneDocumentRefused = new(WriteResult.Refused, HttpStatusCode.BadRequest, "400: this document only");

    private static readonly WriteOutcome EveryWriteRefused = new(WriteResult.Refused, HttpStatusCode.BadRequest, "400/1001: partition key mismatch");

    [Fact]
    public async Task JudgeAsync_RefusedWhileACanaryBegunBeforeItIsInFlight_SystemicOnceTheContainerRefusesEverything()
    {
        using var parts = new StoreParts(fixture.Proxy.Address, fixture.Database);
        var readings = parts.Client.GetContainer(fixture.Database, "readings");
        // A document refused alone starts a probe; the store takes its known-good write now, and answers it late.
        var held = fixture.Proxy.HoldNextWriteContaining(StoreCanary.CanaryId);
        var first = parts.Canary.JudgeAsync(readings, "upsert", _ => Task.FromResult(OneDocumentRefused), CancellationToken.None);
        await held.Arrived.WaitAsync(Timeout);

        // Then the container goes bad (recreated with another partition-key path): every write refused from now on.
        using (fixture.Proxy.AnswerWritesContaining("", HttpStatusCode.BadRequest, 1001))
        {
            var second = parts.Canary.JudgeAsync(readings, "upsert", _ => Task.FromResult(EveryWriteRefused), CancellationToken.None);
            held.Release();

            // The probe in flight was taken before this refusal: only a known-good write after it may judge it.
            var systemic = await Assert.ThrowsAsync<StoreUnavailableException>(() => second.WaitAsync(Timeout));
            Assert.Equal(StoreFault.Systemic, systemic.Fault);
            await AwaitIgnoringVerdictAsync(first);
        }
    }

    [Fact]
    public async Task JudgeAsync_ContainerGoesBadBetweenTheProbeAndTheRewrite_Systemic()
    {
        using var parts = new StoreParts(fixture.Proxy.Address, fixture.Database);
        var readings = parts.Client.GetContainer(fixture.Database, "readings");
        var writes = 0;
        IDisposable? everyWriteRefused = null;
        try
        {
            // Refused alone, the known-good write taken; by the rewrite the container refuses everything.
            var judged = parts.Canary.JudgeAsync(readings, "upsert", _ =>
            {
                if (Interlocked.Increment(ref writes) == 2)
                {
                    everyWriteRefused = fixture.Proxy.AnswerWritesContaining("", HttpStatusCode.BadRequest, 1001);
                    return Task.FromResult(EveryWriteRefused);
                }

                return Task.FromResult(OneDocumentRefused);
            }, CancellationToken.None);

            var systemic = await Assert.ThrowsAsync<StoreUnavailableException>(() => judged.WaitAsync(Timeout));
            Assert.Equal(StoreFault.Systemic, systemic.Fault);
        }
        finally
        {
            everyWriteRefused?.Dispose();
        }
    }

    [Fact]
    public async Task JudgeAsync_RefusedTwiceWhileTheContainerTakesKnownGoodWrites_RejectedAsTheDocuments()
    {
        using var parts = new StoreParts(fixture.Proxy.Address, fixture.Database);
        var readings = parts.Client.GetContainer(fixture.Database, "readings");

        var outcome = await parts.Canary.JudgeAsync(readings, "upsert", _ => Task.FromResult(OneDocumentRefused), CancellationToken.None).WaitAsync(Timeout);

        Assert.Equal(WriteResult.Rejected, outcome.Result);
        Assert.Null(await fixture.Store.ReadAsync("readings", StoreCanary.CanaryId, "store-canary.partition"));
    }

    private static async Task AwaitIgnoringVerdictAsync(Task<WriteOutcome> judged)
    {
        try
        {
            await judged.WaitAsync(Timeout);
        }
        catch (StoreUnavailableException)
        {
            // Either verdict is right for the first refusal: the container went bad while it was judged.
        }
    }
}
