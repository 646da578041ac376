using System.Buffers;
using System.Collections.Concurrent;
using System.Net;
using System.Text.Json;
using Microsoft.Azure.Cosmos;

namespace SensorPipeline.Functions.Storage;

/// <summary>
/// How many attempts at one batch have failed, per function and partition, kept where a restart cannot lose it.
/// The host keeps its retry count in memory: a batch that always times out restarts the host (and the handler), and its
/// count starts again at 0 — so a poison batch that kills its invocation would never reach the isolation threshold.
/// <para>
/// Where: one small document per (function, partition) in <c>deadletters</c>, id <c>attempts:&lt;function&gt;:&lt;partition&gt;</c>,
/// holding the batch's first sequence number and its failed attempts. That container already exists everywhere the
/// handler runs (no new container, role or setting), its partition key is <c>/id</c> so every ledger access is a point
/// operation, and the documents only exist while a batch is failing (deleted on its success): one per stuck partition.
/// A partition serves one invocation at a time in sequence order, so one document per partition suffices: a different
/// first sequence number means a new batch, whose count starts at 0.
/// </para>
/// <para>
/// Cost: nothing on the success path of a batch that never failed. The first invocation per (function, partition) in a
/// process reads the document once (a partition that moved here, or a restart); afterwards this process's memory is
/// authoritative. Writes happen only on a failed attempt, on an attempt still running after <see cref="SlowAttempt"/>
/// (it may be heading for the host's timeout, which would end it unrecorded), and once on the success that follows.
/// </para>
/// A ledger the store cannot take never fails the invocation (that would hide the failure being counted behind another):
/// the count carries on in memory, and the write is tried again on the next failure. The store unavailable is a warning
/// (the very failure being counted, most likely); the ledger's document refused while <c>deadletters</c> takes a
/// known-good write is an error (<c>AttemptLedgerRefused</c>): the count would not survive a restart, so a batch that
/// kills its invocation might never be isolated — the stall alert is then the backstop.
/// </summary>
internal sealed class AttemptLedger(StoreContainers containers, StoreRetry retry, DocumentWriter writer, ILogger<AttemptLedger> logger)
{
    /// <summary>
    /// An attempt still running after this long is recorded as failed before it ends. Above the longest plain store outage
    /// one operation rides out in the invocation (7 attempts of a 10 s timeout plus back-off ≈ 105 s), well under the
    /// host's 10-minute function timeout.
    /// </summary>
    public static readonly TimeSpan SlowAttempt = TimeSpan.FromMinutes(2);

    private readonly ConcurrentDictionary<(string Function, string Partition), BatchAttempts> _entries = new();

    /// <summary>
    /// Starts an attempt at the batch beginning at <paramref name="firstSequence"/>: its failed attempts so far and when
    /// the first attempt began (<paramref name="now"/> for a new batch). Processors judge staleness at that first time, so
    /// a re-run writes exactly what the first attempt would have — a retry that outlasts the max age does not move
    /// readings to the archive or skip their device update.
    /// </summary>
    public async ValueTask<BatchAttempts> BeginAsync(string function, string partition, long firstSequence, DateTimeOffset now, CancellationToken cancellationToken)
    {
        if (!_entries.TryGetValue((function, partition), out var entry))
        {
            if (await ReadAsync(function, partition, cancellationToken) is not { } stored)
            {
                return new BatchAttempts(firstSequence, 0, now); // unreadable now: the host's retry count still applies; read again next time
            }

            entry = stored;
        }

        if (entry.FirstSequence != firstSequence)
        {
            entry = new BatchAttempts(firstSequence, 0, now);
        }

        _entries[(function, partition)] = entry;
        return entry;
    }

    /// <summary>Records one more failed (or possibly abandoned) attempt of <paramref name="attempt"/>'s batch; idempotent per attempt.</summary>
    public async Task RecordFailureAsync(string function, string partition, BatchAttempts attempt, string cause, DateTimeOffset now, CancellationToken cancellationToken)
    {
        var failed = attempt with { Failures = attempt.Failures + 1 };
        _entries[(function, partition)] = failed;
        var document = Document(function, partition, failed, cause, now);
        try
        {
            var outcome = await writer.UpsertAsync(containers.DeadLetters, Id(function, partition), document, cancellationToken);
            if (outcome.Result == WriteResult.Rejected)
            {
                FunctionsLog.AttemptLedgerRefused(logger, function, partition, attempt.FirstSequence, failed.Failures, outcome.Detail ?? ((int)outcome.Status).ToString(System.Globalization.CultureInfo.InvariantCulture));
            }
        }
        catch (StoreUnavailableException e)
        {
            FunctionsLog.AttemptLedgerUnavailable(logger, function, partition, attempt.FirstSequence, failed.Failures, e);
        }
    }

    /// <summary>The batch succeeded: forget its count (one delete, only when a failure was recorded).</summary>
    public async Task ClearAsync(string function, string partition, BatchAttempts attempt, CancellationToken cancellationToken)
    {
        _entries.TryGetValue((function, partition), out var entry);
        _entries[(function, partition)] = new BatchAttempts(-1, 0, attempt.FirstAttemptAt);
        if (entry.FirstSequence != attempt.FirstSequence || entry.Failures == 0)
        {
            return;
        }

        try
        {
            await writer.DeleteIfExistsAsync(containers.DeadLetters, Id(function, partition), Id(function, partition), cancellationToken);
        }
        catch (StoreUnavailableException e)
        {
            // A stale count for a batch that has moved on is harmless: the next batch has another first sequence number.
            FunctionsLog.AttemptLedgerUnavailable(logger, function, partition, attempt.FirstSequence, 0, e);
        }
    }

    internal static string Id(string function, string partition) => $"attempts:{function}:{partition}";

    /// <summary>The stored count, an empty entry when there is none, or null when the store cannot tell now.</summary>
    private async Task<BatchAttempts?> ReadAsync(string function, string partition, CancellationToken cancellationToken)
    {
        var id = Id(function, partition);
        try
        {
            using var response = await retry.ExecuteAsync(
                containers.DeadLetters.Id,
                "read",
                (containers.DeadLetters, id),
                static (s, token) => s.DeadLetters.ReadItemStreamAsync(s.id, new PartitionKey(s.id), cancellationToken: token),
                cancellationToken);
            if (response.StatusCode != HttpStatusCode.OK || response.Content is null)
            {
                // Missing (404): no count, as after a success.
                return new BatchAttempts(-1, 0, default);
            }

            using var json = await JsonDocument.ParseAsync(response.Content, cancellationToken: cancellationToken);
            var root = json.RootElement;
            return new BatchAttempts(root.GetProperty("firstSequenceNumber").GetInt64(), root.GetProperty("failures").GetInt32(),
                root.GetProperty("firstAttemptAt").GetDateTimeOffset());
        }
        catch (StoreUnavailableException e)
        {
            FunctionsLog.AttemptLedgerUnavailable(logger, function, partition, -1, 0, e);
            return null;
        }
        catch (Exception e) when (e is JsonException or KeyNotFoundException or InvalidOperationException or FormatException)
        {
            // Someone edited it by hand: treat as no count rather than fail every invocation of the partition.
            FunctionsLog.AttemptLedgerUnavailable(logger, function, partition, -1, 0, e);
            return new BatchAttempts(-1, 0, default);
        }
    }

    private static byte[] Document(string function, string partition, BatchAttempts attempt, string cause, DateTimeOffset now)
    {
        var buffer = new ArrayBufferWriter<byte>(256);
        using (var json = new Utf8JsonWriter(buffer))
        {
            json.WriteStartObject();
            json.WriteString("id", Id(function, partition));
            json.WriteString("type", "attempts");
            json.WriteString("function", function);
            json.WriteString("partitionId", partition);
            json.WriteNumber("firstSequenceNumber", attempt.FirstSequence);
            json.WriteNumber("failures", attempt.Failures);
            json.WriteString("firstAttemptAt", attempt.FirstAttemptAt.UtcDateTime);
            json.WriteString("lastCause", cause.Length <= 1000 ? cause : cause[..1000]);
            json.WriteString("updatedAt", now.UtcDateTime);
            json.WriteEndObject();
        }

        return buffer.WrittenSpan.ToArray();
    }

}

/// <summary>One batch's attempts: its first sequence number, how many attempts failed, and when the first one began.</summary>
internal readonly record struct BatchAttempts(long FirstSequence, int Failures, DateTimeOffset FirstAttemptAt);
