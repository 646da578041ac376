using Microsoft.Azure.Cosmos;
using Microsoft.Extensions.Options;
using SensorPipeline.Core.DeadLetters;
using SensorPipeline.Functions.Options;

namespace SensorPipeline.Functions.Storage;

/// <summary>
/// Stores dead letters in <c>deadletters</c> (partition key <c>/id</c>). Their ids are deterministic, so a
/// redelivered batch overwrites its dead letters instead of duplicating them. A dead letter is the last place
/// a bad reading can go, so one the store refuses as is (400, 413: too large or malformed) is stored reduced — reason,
/// position, the payload's length, SHA-256 and first bytes, the refusal — never dropped and never a stall. Only a store
/// that is unavailable or refuses everything fails the invocation (the batch is kept and retried).
/// </summary>
internal sealed class DeadLetterStore(StoreContainers containers, DocumentWriter writer, IOptions<PipelineOptions> options, ILogger<DeadLetterStore> logger)
{
    public async Task WriteAsync(IReadOnlyList<DeadLetter> deadLetters, DateTimeOffset now, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(deadLetters);
        if (deadLetters.Count == 0)
        {
            return;
        }

        var set = containers.For(deadLetters.Count);
        var parallel = new ParallelOptions { MaxDegreeOfParallelism = set.Parallelism(deadLetters.Count, options.Value.WriteParallelism), CancellationToken = cancellationToken };
        await Parallel.ForEachAsync(deadLetters, parallel, async (deadLetter, token) =>
        {
            var document = DeadLetterWriter.ToUtf8(deadLetter, now);
            var outcome = await writer.UpsertAsync(set.DeadLetters, deadLetter.Id, document, token);
            if (outcome.Result != WriteResult.Rejected)
            {
                return;
            }

            var reduced = DeadLetterWriter.ToUtf8Reduced(deadLetter, now, outcome.Detail ?? ((int)outcome.Status).ToString(System.Globalization.CultureInfo.InvariantCulture));
            FunctionsLog.DeadLetterReduced(logger, deadLetter.Id, (int)outcome.Status, Math.Min(deadLetter.Payload.Length, DeadLetterWriter.ReducedPayloadBytes), deadLetter.Payload.Length);
            var second = await writer.UpsertAsync(set.DeadLetters, deadLetter.Id, reduced, token);
            if (second.Result == WriteResult.Rejected)
            {
                // Refused even reduced: the store objects to the content, not the size. Keep what identifies it.
                var bare = deadLetter with { Detail = "payload and detail refused by the store; see payloadSha256" };
                var minimal = DeadLetterWriter.ToUtf8Reduced(bare, now, $"{outcome.Detail}; reduced: {second.Detail}", keepBytes: 0);
                var last = await writer.UpsertAsync(set.DeadLetters, deadLetter.Id, minimal, token);
                if (last.Result == WriteResult.Rejected)
                {
                    throw new StoreUnavailableException("dead-letter upsert", last.Status, 3,
                        new CosmosException($"dead letter {deadLetter.Id} refused even without its payload: {last.Detail}", last.Status, 0, null, 0));
                }
            }
        });
    }
}
