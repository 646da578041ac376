using Microsoft.Extensions.Logging;
using SensorPipeline.Functions.Storage;

namespace SensorPipeline.Functions.Tests;

/// <summary>
/// <see cref="AttemptLedger"/> when the store refuses its document while <c>deadletters</c> takes a known-good write: the
/// count cannot outlive a restart, and that must be said loudly, never dropped.
/// </summary>
[Collection(FaultGroup.Name)]
public sealed class AttemptLedgerTests(FaultFixture fixture)
{
    [Fact]
    public async Task RecordFailureAsync_LedgerDocumentRefusedAlone_ErrorLoggedWithTheStoresAnswerAndCountKeptInMemory()
    {
        var logger = new CapturingLogger<AttemptLedger>();
        using var parts = new StoreParts(fixture.Proxy.Address, fixture.Database, logger);
        var ledger = parts.Ledger;
        var function = "LedgerRefused-" + Guid.NewGuid().ToString("N")[..6];
        // Any deadletters write over 100 bytes is refused (413): the ledger's document (~300 bytes) is, the canary's
        // (~45 bytes) is not, so the store takes a known-good write and the refusal is the ledger document's.
        fixture.Proxy.RejectDeadLettersLargerThan(100);
        try
        {
            var attempt = await ledger.BeginAsync(function, "41", 1000, DateTimeOffset.UtcNow, CancellationToken.None);
            await ledger.RecordFailureAsync(function, "41", attempt, "InvalidOperationException: boom", DateTimeOffset.UtcNow, CancellationToken.None);

            var refused = Assert.Single(logger.Entries, e => e.Level >= LogLevel.Error);
            Assert.Equal("AttemptLedgerRefused", refused.Event);
            Assert.Contains("413", refused.Message, StringComparison.Ordinal);
            Assert.Contains(function, refused.Message, StringComparison.Ordinal);
            // The count carries on in memory: the isolation still reaches its threshold in this process.
            Assert.Equal(1, (await ledger.BeginAsync(function, "41", 1000, DateTimeOffset.UtcNow, CancellationToken.None)).Failures);
            var id = AttemptLedger.Id(function, "41");
            Assert.Null(await fixture.Store.ReadAsync("deadletters", id, id));
        }
        finally
        {
            fixture.Proxy.RejectDeadLettersLargerThan(int.MaxValue);
        }
    }
}
