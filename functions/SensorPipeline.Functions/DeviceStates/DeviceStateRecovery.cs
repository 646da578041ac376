using System.Buffers;
using System.Globalization;
using System.Text.Json;
using Microsoft.Azure.Cosmos;
using Microsoft.Extensions.Options;
using SensorPipeline.Core.DeviceStates;
using SensorPipeline.Core.GeoJson;
using SensorPipeline.Core.Processing;
using SensorPipeline.Functions.Options;
using SensorPipeline.Functions.Storage;

namespace SensorPipeline.Functions.DeviceStates;

/// <summary>
/// Rebuilds the device states a dead instance held in memory. Its readings are durable (stored before its checkpoint
/// moved), so the states are in <c>readings</c>: for each expired <see cref="PendingStatesMark"/>, claim it (ETag), read
/// the readings stored from its instant to its expiry — by the store's <c>_ts</c>, widened by
/// <c>Pipeline__DeviceStateClockMargin</c> on both sides —, write each device's newest through the guard (idempotent:
/// a state already newer answers 412), then delete the mark. A claimant that dies leaves a claim that expires in turn.
/// </summary>
internal sealed class DeviceStateRecovery(
    PendingStatesMarks marks,
    StoreContainers containers,
    DeviceStateWrites writes,
    DeviceStateStatus status,
    TimeProvider clock,
    IOptions<PipelineOptions> options,
    ILogger<DeviceStateRecovery> logger)
{
    /// <summary>The recovery query: every reading stored in a window of the store's clock (whole seconds).</summary>
    public const string Query = "SELECT * FROM c WHERE c._ts >= @from AND c._ts <= @to";

    private int _unrecovered;

    /// <summary>Marks of other instances found expired (or being recovered) at the last look, not yet recovered.</summary>
    public int Unrecovered => Volatile.Read(ref _unrecovered);

    /// <summary>Recovers every expired mark this instance can claim; returns how many it recovered.</summary>
    public async Task<int> RecoverExpiredAsync(CancellationToken cancellationToken)
    {
        var now = clock.GetUtcNow().ToUnixTimeMilliseconds();
        var found = await marks.ListAsync(cancellationToken);
        var expired = found.Where(m => m.Mark.Id != marks.Id && m.Mark.IsExpired(now)).ToList();
        Volatile.Write(ref _unrecovered, found.Count(m => m.Mark.Id != marks.Id && (m.Mark.ClaimedBy is not null || m.Mark.IsExpired(now))));
        var recovered = 0;
        foreach (var (mark, etag) in expired)
        {
            if (await marks.ClaimAsync(mark, etag, cancellationToken) is not { } claim)
            {
                continue; // another instance claimed it first
            }

            var states = await NewestStatesAsync(mark, cancellationToken);
            var tally = await writes.WriteAsync(states, static (_, _) => { }, cancellationToken);
            status.Add(tally);
            if (tally.Failed > 0)
            {
                // Left claimed: the claim expires and the recovery runs again (this instance or another).
                throw new InvalidOperationException(string.Create(CultureInfo.InvariantCulture,
                    $"Recovering pending-states mark {mark.Id}: {tally.Failed} of {states.Count} device states not written; retried when the claim expires."), tally.FirstFailure);
            }

            await marks.DeleteAsync(mark.Id, claim, cancellationToken);
            FunctionsLog.MarkRecovered(logger, mark.Id, states.Count, tally.Written, tally.Superseded);
            recovered++;
        }

        Volatile.Write(ref _unrecovered, Math.Max(0, Unrecovered - recovered));
        return recovered;
    }

    /// <summary>The window's readings, reduced to the newest state per device that may win.</summary>
    private async Task<IReadOnlyList<DueState>> NewestStatesAsync(PendingStatesMark mark, CancellationToken cancellationToken)
    {
        var margin = (long)options.Value.DeviceStateClockMargin.TotalMilliseconds;
        // A reading the dead instance committed was stored while its mark was current, so before the mark's expiry.
        var from = (mark.StoredBeforeUnixMs - margin) / 1000;
        var to = ((mark.ExpiresAtUnixMs + margin) / 1000) + 1;
        var newest = new Dictionary<string, PendingState>(StringComparer.Ordinal);
        var query = new QueryDefinition(Query).WithParameter("@from", from).WithParameter("@to", to);
        using var iterator = containers.Readings.GetItemQueryStreamIterator(query);
        var output = new ArrayBufferWriter<byte>(1024);
        using var writer = new Utf8JsonWriter(output);
        await foreach (var reading in StoreQuery.DocumentsAsync(iterator, "recovery query of readings", cancellationToken))
        {
            output.ResetWrittenCount();
            writer.Reset(output);
            if (StoredReadingState.TryWrite(reading, options.Value.MaxClockSkew, writer, out var state)
                && (!newest.TryGetValue(state.DeviceId, out var known) || string.CompareOrdinal(state.Version, known.Version) > 0))
            {
                newest[state.DeviceId] = new PendingState(state.DeviceId, state.Version, output.WrittenSpan.ToArray(), null);
            }
        }

        return [.. newest.Values.Select(s => new DueState(s, mark.StoredBeforeUnixMs))]; // the lag of a recovered state is not W's
    }
}
