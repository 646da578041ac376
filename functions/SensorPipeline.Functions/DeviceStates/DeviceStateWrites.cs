using Microsoft.Extensions.Options;
using SensorPipeline.Core.DeadLetters;
using SensorPipeline.Core.Readings;
using SensorPipeline.Functions.Options;
using SensorPipeline.Functions.Storage;

namespace SensorPipeline.Functions.DeviceStates;

/// <summary>What one round of state writes did.</summary>
internal readonly record struct StateWriteTally(int Written, int Superseded, int DeadLettered, int Failed, Exception? FirstFailure);

/// <summary>
/// Writes device states through the guard (<see cref="DeviceStateGuard"/>: an older state never overwrites a newer one,
/// across instances), many at once — in bulk when there are enough — and tells the caller per state whether it is now
/// durable: written, superseded by a newer one already stored, or refused for good and dead-lettered with its reading.
/// A write that fails (the store unavailable, retries spent) leaves its state pending; it is not an event's fault.
/// </summary>
internal sealed class DeviceStateWrites(StoreContainers containers, DeviceStateGuard guard, DeadLetterStore deadLetters, TimeProvider clock, IOptions<PipelineOptions> options)
{
    public async Task<StateWriteTally> WriteAsync(IReadOnlyList<DueState> states, Action<DueState, bool> finished, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(states);
        ArgumentNullException.ThrowIfNull(finished);
        var (written, superseded, deadLettered, failed) = (0, 0, 0, 0);
        Exception? firstFailure = null;
        var set = containers.For(states.Count);
        var parallel = new ParallelOptions { MaxDegreeOfParallelism = set.Parallelism(states.Count, options.Value.WriteParallelism), CancellationToken = cancellationToken };
        await Parallel.ForEachAsync(states, parallel, async (due, token) =>
        {
            var durable = false;
            try
            {
                var state = due.State;
                var outcome = await guard.WriteAsync(set.Devices, state.DeviceId, state.Version, state.Document, token);
                switch (outcome.Result)
                {
                    case WriteResult.Written:
                        Interlocked.Increment(ref written);
                        durable = true;
                        break;
                    case WriteResult.Superseded:
                        Interlocked.Increment(ref superseded);
                        durable = true;
                        break;
                    default:
                        durable = await DeadLetterAsync(state, outcome, token);
                        Interlocked.Increment(ref durable ? ref deadLettered : ref failed);
                        break;
                }
            }
            catch (Exception e) when (e is not OperationCanceledException || !token.IsCancellationRequested)
            {
                // Kept pending and written again next round; reported once per round by the caller.
                Interlocked.Increment(ref failed);
                Interlocked.CompareExchange(ref firstFailure, e, null);
            }
            finally
            {
                finished(due, durable);
            }
        });
        return new StateWriteTally(written, superseded, deadLettered, failed, firstFailure);
    }

    /// <summary>
    /// A state the store refused while <c>devices</c> took a known-good write: dead-lettered as its reading (re-drivable),
    /// under the reading's place in its envelope — the id a refusal of the reading itself gets, the same for every
    /// redelivery. A state rebuilt from <c>readings</c> has no reading bytes at hand: it stays pending.
    /// </summary>
    private async Task<bool> DeadLetterAsync(PendingState state, WriteOutcome outcome, CancellationToken cancellationToken)
    {
        if (state.Refusal is not { } refusal)
        {
            return false;
        }

        var letter = new DeadLetter(refusal.Stage + "-store", DeadLetterReason.RejectedByStore, refusal.Envelope, refusal.EnvelopeIndex, state.DeviceId,
            refusal.Reading, $"device {state.DeviceId} ({refusal.ReadingId}) → {containers.Devices.Id}: {outcome.Detail}");
        await deadLetters.WriteAsync([letter], clock.GetUtcNow(), cancellationToken);
        return true;
    }
}
