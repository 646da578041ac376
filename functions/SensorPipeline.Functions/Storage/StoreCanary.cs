using System.Collections.Concurrent;
using Microsoft.Azure.Cosmos;
using Microsoft.Extensions.Options;
using SensorPipeline.Functions.Options;

namespace SensorPipeline.Functions.Storage;

/// <summary>
/// The one rule that tells a document the store will never take from a store that takes nothing: <b>a refusal is about
/// the document only if the same container accepts a known-good write right now.</b> A status cannot tell them apart —
/// 400 is one malformed document or a container recreated with another partition-key path (400/1001 on every write), 403
/// one device's full partition or a role still propagating — and a batch cannot either: a batch of one envelope that
/// fails alone says nothing about the store. So on a refusal the canary upserts a small document shaped as the handler's
/// documents are in that container's role (its partition-key property and value) to <i>that</i> container — the attempt
/// ledger's write to <c>deadletters</c> proves nothing about <c>readings</c> — and deletes it again.
/// <list type="bullet">
/// <item>Refused too: <b>systemic</b>. <see cref="StoreUnavailableException"/> with <see cref="StoreFault.Systemic"/>:
/// nothing is dead-lettered, the invocation fails, the host backs off and retries, and it is raised loudly.</item>
/// <item>Accepted: the write runs once more (a fault that ended between the refusal and the canary must not cost a good
/// document); taken, it is written; refused again, that refusal is judged the same way — the container may have gone bad
/// since the canary — and only if a known-good write is taken after it too is it <b>this document's</b> refusal
/// (<see cref="WriteResult.Rejected"/>: dead-lettered with the store's answer while the rest of the batch commits).</item>
/// </list>
/// A canary judges only refusals seen before it began: one already running may have been taken before the container went
/// bad, so a refusal never joins it but waits for the next canary, which begins when the running one ends.
/// Cost: nothing until a write is refused; then canary upserts and deletes shared by every refusal waiting on that
/// container meanwhile — a bulk phase of 500 refused writes runs two (the one running and the next), a rejected document
/// two more (one after each of its refusals).
/// </summary>
internal sealed class StoreCanary
{
    /// <summary>The canary document's id; its partition-key value differs, so a container keyed on <c>/id</c> refuses it where <c>/deviceId</c> is expected.</summary>
    public const string CanaryId = "store-canary";

    private const string DeviceKey = "store-canary.partition";

    private static readonly ItemRequestOptions NoContent = new() { EnableContentResponseOnWrite = false };

    private readonly CosmosClient _client;
    private readonly CosmosOptions _options;
    private readonly StoreRetry _retry;
    private readonly ILogger<StoreCanary> _logger;
    private readonly CancellationToken _stopping;
    private readonly Dictionary<string, Probes> _probes = new(StringComparer.Ordinal);
    private readonly ConcurrentDictionary<string, Container> _pointContainers = new(StringComparer.Ordinal);

    public StoreCanary(CosmosClient client, IOptions<CosmosOptions> options, StoreRetry retry, IHostApplicationLifetime lifetime, ILogger<StoreCanary> logger)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(lifetime);
        _client = client;
        _options = options.Value;
        _retry = retry;
        _logger = logger;
        _stopping = lifetime.ApplicationStopping;
    }

    /// <summary>Runs <paramref name="write"/> and judges a refusal (<see cref="WriteResult.Refused"/>) as described above.</summary>
    /// <param name="container">The container written to.</param>
    /// <param name="operation">The write's name (for the systemic failure's message).</param>
    /// <param name="write">One complete write; answers <see cref="WriteResult.Refused"/> for a refusal, throws for a transient failure.</param>
    /// <param name="cancellationToken">The invocation's token.</param>
    public async Task<WriteOutcome> JudgeAsync(Container container, string operation, Func<CancellationToken, Task<WriteOutcome>> write, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(container);
        ArgumentNullException.ThrowIfNull(write);
        var first = await write(cancellationToken);
        if (first.Result != WriteResult.Refused)
        {
            return first;
        }

        if (await KnownGoodRefusalAsync(container, cancellationToken) is { } canaryRefused)
        {
            throw Systemic(container.Id, operation, first, canaryRefused);
        }

        var again = await write(cancellationToken);
        if (again.Result != WriteResult.Refused)
        {
            return again;
        }

        if (await KnownGoodRefusalAsync(container, cancellationToken) is { } refusedSince)
        {
            throw Systemic(container.Id, operation, again, refusedSince);
        }

        FunctionsLog.DocumentRefused(_logger, container.Id, operation, (int)again.Status, again.Detail ?? "");
        return again with { Result = WriteResult.Rejected, Detail = $"{again.Detail} (refused twice, {container.Id} taking a known-good write after each refusal)" };
    }

    /// <summary>
    /// Null when <paramref name="container"/> takes a known-good write begun after the caller's refusal, else how it refused
    /// it. Concurrent callers share canaries, but never one already running when they ask.
    /// </summary>
    private Task<string?> KnownGoodRefusalAsync(Container container, CancellationToken cancellationToken)
    {
        TaskCompletionSource<string?>? start = null;
        Task<string?> verdict;
        lock (_probes)
        {
            if (!_probes.TryGetValue(container.Id, out var probes))
            {
                probes = new Probes();
                _probes[container.Id] = probes;
            }

            if (probes.Running is null)
            {
                start = new TaskCompletionSource<string?>(TaskCreationOptions.RunContinuationsAsynchronously);
                probes.Running = start;
                verdict = start.Task;
            }
            else
            {
                // The running canary may have been taken before this refusal: it proves nothing about the container since.
                probes.Next ??= new TaskCompletionSource<string?>(TaskCreationOptions.RunContinuationsAsynchronously);
                verdict = probes.Next.Task;
            }
        }

        if (start is not null)
        {
            // Not bound to this invocation's token: others wait on it too. StoreRetry bounds every attempt.
            _ = ProbeAsync(container, start);
        }

        return verdict.WaitAsync(cancellationToken);
    }

    /// <summary>Runs the canary for <paramref name="first"/>, then the next one asked for meanwhile, until none is.</summary>
    private async Task ProbeAsync(Container container, TaskCompletionSource<string?> first)
    {
        var current = first;
        while (true)
        {
            try
            {
                current.SetResult(await WriteCanaryAsync(container, _stopping));
            }
            catch (Exception e)
            {
                current.SetException(e);
            }

            lock (_probes)
            {
                var probes = _probes[container.Id];
                if (probes.Next is not { } next)
                {
                    _probes.Remove(container.Id);
                    return;
                }

                current = next;
                probes.Running = next;
                probes.Next = null;
            }
        }
    }

    private async Task<string?> WriteCanaryAsync(Container container, CancellationToken cancellationToken)
    {
        // Through the point client whatever client refused: a bulk client would hold the canary for its dispatch timer.
        var point = _pointContainers.GetOrAdd(container.Id, static (id, s) => s.Client.GetContainer(s.Database, id), (Client: _client, Database: _options.DatabaseName));
        var keyedById = string.Equals(container.Id, _options.DeadLettersContainer, StringComparison.Ordinal);
        var key = keyedById ? CanaryId : DeviceKey;
        var document = keyedById
            ? """{"id":"store-canary","type":"store-canary"}"""u8.ToArray()
            : """{"id":"store-canary","deviceId":"store-canary.partition","type":"store-canary"}"""u8.ToArray();
        using (var written = await _retry.ExecuteAsync(point.Id, "canary", (point, key, document), static async (s, token) =>
        {
            using var stream = ReadOnlyDocumentStream.Create(s.document);
            return await s.point.UpsertItemStreamAsync(stream, new PartitionKey(s.key), NoContent, token);
        }, cancellationToken))
        {
            if (!StoreStatus.IsSuccess(written.StatusCode))
            {
                return StoreStatus.FaultOf(written.StatusCode, StoreStatus.SubStatus(written.Headers)) == StoreFault.Transient
                    ? throw DocumentWriter.Unavailable("canary", written)
                    : DocumentWriter.Describe(written);
            }
        }

        // Deleted again, so no query or count ever meets it; one that stays (the delete failed) is harmless.
        try
        {
            using var deleted = await _retry.ExecuteAsync(point.Id, "canary delete", (point, key), static (s, token) =>
                s.point.DeleteItemStreamAsync(CanaryId, new PartitionKey(s.key), cancellationToken: token), cancellationToken);
        }
        catch (StoreUnavailableException e)
        {
            FunctionsLog.CanaryNotDeleted(_logger, point.Id, e);
        }

        return null;
    }

    private static StoreUnavailableException Systemic(string container, string operation, WriteOutcome refused, string canaryRefused) =>
        new($"Systemic: Cosmos DB refused a {operation} to '{container}' ({refused.Detail}) and a known-good write to the same container too ({canaryRefused}): the container or the configuration is at fault, not the data. Nothing is dead-lettered; the host retries with back-off.",
            new CosmosException(refused.Detail ?? "refused", refused.Status, 0, null, 0))
        {
            Fault = StoreFault.Systemic,
        };

    /// <summary>One container's canaries: the one running, and the one the refusals seen since it began wait for.</summary>
    private sealed class Probes
    {
        public TaskCompletionSource<string?>? Running { get; set; }

        public TaskCompletionSource<string?>? Next { get; set; }
    }
}
