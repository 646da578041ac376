using Microsoft.Azure.Cosmos;
using Microsoft.Extensions.Options;
using SensorPipeline.Core.DeadLetters;
using SensorPipeline.Functions.Options;

namespace SensorPipeline.Functions.Storage;

/// <summary>
/// Stores dead letters in <c>deadletters</c> (partition key <c>/id</c>). Their ids are deterministic, so a
/// redelivered batch overwrites its dead letters instead of duplicating them. A dead letter is the last place
/// a bad reading can go: if the store will not take even that, the invocation fails rather than lose it.
/// </summary>
internal sealed class DeadLetterStore(StoreContainers containers, DocumentWriter writer, IOptions<PipelineOptions> options)
{
    public async Task WriteAsync(IReadOnlyList<DeadLetter> deadLetters, DateTimeOffset now, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(deadLetters);
        if (deadLetters.Count == 0)
        {
            return;
        }

        var parallel = new ParallelOptions { MaxDegreeOfParallelism = options.Value.WriteParallelism, CancellationToken = cancellationToken };
        await Parallel.ForEachAsync(deadLetters, parallel, async (deadLetter, token) =>
        {
            var document = DeadLetterWriter.ToUtf8(deadLetter, now);
            var outcome = await writer.UpsertAsync(containers.DeadLetters, deadLetter.Id, document, token);
            if (outcome.Result == WriteResult.Rejected)
            {
                throw new StoreUnavailableException("dead-letter upsert", outcome.Status, 1,
                    new CosmosException($"dead letter {deadLetter.Id} rejected: {outcome.Detail}", outcome.Status, 0, null, 0));
            }
        });
    }
}
