using System.Collections.Concurrent;
using System.Globalization;
using System.Net;
using System.Security.Cryptography;
using System.Text.Json;
using Microsoft.Azure.Cosmos;
using SensorPipeline.Core.GeoJson;
using SensorPipeline.Core.Telemetry;
using SensorPipeline.LoadGen.Ledger;

namespace SensorPipeline.LoadGen.Verify;

/// <summary>The Cosmos DB containers verify reads.</summary>
internal sealed record VerifyContainers(Container Readings, Container Archive, Container Devices, Container DeadLetters);

/// <summary>
/// Checks a ledger against Cosmos DB: each device's readings by one single-partition query per container (by sequence,
/// so a copy under any document id is found), device states by point reads, dead letters by one query.
/// </summary>
internal sealed class LedgerVerifier
{
    private readonly VerifyContainers _containers;
    private readonly int _concurrency;
    private readonly TimeSpan? _maxAge;
    private readonly IReadOnlyList<(DateTimeOffset From, DateTimeOffset To)> _episodes;
    private readonly TimeSpan _deviceStatesTimeout;
    private long _checked;

    /// <param name="containers">The containers to check.</param>
    /// <param name="concurrency">Devices checked at once.</param>
    /// <param name="maxAge">The pipeline's max age: when given, every archived reading is also checked against the
    /// run's backlog episodes (<see cref="StaleWindows"/>).</param>
    /// <param name="episodes">Backlog episodes besides the ledger's pauses (a killed instance), judged the same way.</param>
    /// <param name="deviceStatesTimeout">How long to wait for the device states to settle before the device check
    /// (<see cref="DeviceStatesSettled"/>); default <see cref="DeviceStatesSettled.DefaultTimeout"/>.</param>
    public LedgerVerifier(VerifyContainers containers, int concurrency, TimeSpan? maxAge = null, IReadOnlyList<(DateTimeOffset From, DateTimeOffset To)>? episodes = null,
        TimeSpan? deviceStatesTimeout = null)
    {
        _deviceStatesTimeout = deviceStatesTimeout ?? DeviceStatesSettled.DefaultTimeout;
        _containers = containers ?? throw new ArgumentNullException(nameof(containers));
        ArgumentOutOfRangeException.ThrowIfLessThan(concurrency, 1);
        _concurrency = concurrency;
        _maxAge = maxAge;
        _episodes = episodes ?? [];
    }

    /// <summary>Readings checked so far (for progress).</summary>
    public long Checked => Interlocked.Read(ref _checked);

    /// <summary>Readings the ledger expects.</summary>
    public static long Expected(RunLedger ledger)
    {
        ArgumentNullException.ThrowIfNull(ledger);
        return ledger.Devices.Sum(d => (long)d.HighestSequence - d.Unsent.Sum(r => (long)(r.Last - r.First + 1)));
    }

    public async Task<Verdict> VerifyAsync(RunLedger ledger, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(ledger);
        await EnsureContainersExistAsync(cancellationToken);
        var verdict = new Verdict { Sent = Expected(ledger), Devices = ledger.Devices.Count };
        var highestLive = new long[ledger.Devices.Count];
        var staleWindows = _maxAge is { } maxAge ? new StaleWindows([.. ledger.Pauses.Select(p => (p.PausedAt, p.ResumedAt)), .. _episodes], maxAge) : null;
        var tally = new ReadingTally();
        await CheckReadingsAsync(ledger, highestLive, staleWindows, tally, cancellationToken);
        tally.WriteTo(verdict, staleWindows);

        if (await DeviceStatesSettled.WaitAsync(_containers.Devices, _deviceStatesTimeout, TimeProvider.System, cancellationToken) is { } unsettled)
        {
            verdict.DeviceProblems.Add("device states not settled after " + _deviceStatesTimeout.ToString("c", System.Globalization.CultureInfo.InvariantCulture) + ": " + unsettled);
        }

        await CheckDevicesAsync(ledger, highestLive, verdict, cancellationToken);
        await CheckDeadLettersAsync(ledger, verdict, cancellationToken);
        return verdict;
    }

    private async Task EnsureContainersExistAsync(CancellationToken cancellationToken)
    {
        foreach (var container in new[] { _containers.Readings, _containers.Archive, _containers.Devices, _containers.DeadLetters })
        {
            // A missing container (or database) would make every reading look "missing": say so instead of a false verdict.
            using var response = await container.ReadContainerStreamAsync(cancellationToken: cancellationToken);
            EnsureSuccess(response, container, "(container)");
        }
    }

    // Each device's expected readings against its copies in readings and archive; notes each device's highest live sequence.
    private async Task CheckReadingsAsync(RunLedger ledger, long[] highestLive, StaleWindows? staleWindows, ReadingTally tally, CancellationToken cancellationToken)
    {
        await Parallel.ForEachAsync(Enumerable.Range(0, ledger.Devices.Count), new ParallelOptions { MaxDegreeOfParallelism = _concurrency, CancellationToken = cancellationToken },
            async (d, token) =>
            {
                var device = ledger.Devices[d];
                var archiveEnqueuedAt = staleWindows is null ? null : new Dictionary<ulong, DateTimeOffset>();
                var inReadings = SequencesAsync(_containers.Readings, device.Id, null, token);
                var inArchive = SequencesAsync(_containers.Archive, device.Id, archiveEnqueuedAt, token);
                var (live, stale) = (await inReadings, await inArchive);
                foreach (var sequence in Expectations(device))
                {
                    var label = string.Create(CultureInfo.InvariantCulture, $"{device.Id}:{sequence}"); // the reading, whatever id it is stored under
                    var (liveCopies, staleCopies) = (live.GetValueOrDefault(sequence), stale.GetValueOrDefault(sequence));
                    if (liveCopies > 0)
                    {
                        InterlockedMax.Raise(ref highestLive[d], (long)sequence);
                    }

                    var outsideEpisodes = staleCopies > 0 && staleWindows is not null && !(archiveEnqueuedAt!.TryGetValue(sequence, out var enqueuedAt) && staleWindows.Explains(enqueuedAt));
                    tally.Add(label, liveCopies, staleCopies, outsideEpisodes);
                    Interlocked.Increment(ref _checked);
                }
            });
    }

    private static IEnumerable<ulong> Expectations(LedgerDevice device)
    {
        for (ulong sequence = 1; sequence <= device.HighestSequence; sequence++)
        {
            if (!device.Unsent.Any(r => sequence >= r.First && sequence <= r.Last))
            {
                yield return sequence;
            }
        }
    }

    /// <summary>
    /// How many documents of one device's partition hold each sequence. Read by the sequence inside the document, not by
    /// id, so a copy under any document id is found — one reading stored under two ids (its sequence with two observed
    /// times) counts twice, a duplicate. loadgen's devices never restart their counters, so two documents of one sequence are always one reading.
    /// One single-partition query per device and container: its cost follows the device's documents, not the container's.
    /// When <paramref name="enqueuedAt"/> is given, it also receives each sequence's ingestion enqueued time.
    /// </summary>
    private static async Task<Dictionary<ulong, int>> SequencesAsync(Container container, string deviceId, Dictionary<ulong, DateTimeOffset>? enqueuedAt,
        CancellationToken cancellationToken)
    {
        var counts = new Dictionary<ulong, int>();
        var query = enqueuedAt is null
            ? "SELECT VALUE c.properties.sequence FROM c"
            : "SELECT c.properties.sequence AS s, c.properties.enqueuedAt AS e FROM c";
        using var iterator = container.GetItemQueryStreamIterator(new QueryDefinition(query),
            requestOptions: new QueryRequestOptions { PartitionKey = new PartitionKey(deviceId), MaxItemCount = 10_000 });
        while (iterator.HasMoreResults)
        {
            using var page = await iterator.ReadNextAsync(cancellationToken);
            EnsureSuccess(page, container, deviceId + " (query)");
            using var json = await JsonDocument.ParseAsync(page.Content, cancellationToken: cancellationToken);
            foreach (var value in json.RootElement.GetProperty("Documents").EnumerateArray())
            {
                var number = enqueuedAt is null ? value : value.TryGetProperty("s", out var s) ? s : default;
                if (number.ValueKind == JsonValueKind.Number && number.TryGetUInt64(out var sequence))
                {
                    counts[sequence] = counts.GetValueOrDefault(sequence) + 1;
                    if (enqueuedAt is not null && value.TryGetProperty("e", out var e) && e.TryGetDateTimeOffset(out var at))
                    {
                        enqueuedAt[sequence] = at;
                    }
                }
            }
        }

        return counts;
    }

    private async Task CheckDevicesAsync(RunLedger ledger, long[] highestLive, Verdict verdict, CancellationToken cancellationToken)
    {
        var problems = new ConcurrentQueue<string>();
        var mismatches = 0;
        await Parallel.ForEachAsync(Enumerable.Range(0, ledger.Devices.Count), new ParallelOptions { MaxDegreeOfParallelism = _concurrency, CancellationToken = cancellationToken },
            async (d, token) =>
            {
                var device = ledger.Devices[d];
                var expected = highestLive[d];
                if (expected == 0)
                {
                    return; // nothing live (all archived, or nothing sent): no latest state to compare
                }

                using var response = await _containers.Devices.ReadItemStreamAsync(device.Id, new PartitionKey(device.Id), cancellationToken: token);
                string? problem = null;
                if (response.StatusCode == HttpStatusCode.NotFound)
                {
                    problem = $"{device.Id}: no devices document (expected sequence {expected})";
                }
                else
                {
                    EnsureSuccess(response, _containers.Devices, device.Id);
                    var actual = await ReadSequenceAsync(response.Content, token);
                    if (actual != expected)
                    {
                        problem = $"{device.Id}: devices document has sequence {actual?.ToString(System.Globalization.CultureInfo.InvariantCulture) ?? "(none)"}, highest in readings is {expected}";
                    }
                }

                if (problem is not null)
                {
                    Interlocked.Increment(ref mismatches);
                    Note(problems, problem);
                }
            });
        verdict.DeviceMismatches = mismatches;
        verdict.DeviceProblems = [.. problems];
    }

    private async Task CheckDeadLettersAsync(RunLedger ledger, Verdict verdict, CancellationToken cancellationToken)
    {
        var expected = ledger.Injected.Where(i => i.Acknowledged).Select(i => i.Sha256).ToList();
        var expectedSet = expected.ToHashSet(StringComparer.OrdinalIgnoreCase);
        verdict.InjectedSent = expected.Count;
        var found = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        var total = 0;
        // The one query: deadletters stays small (only bad input lands there). Only dead letters have a reason: the
        // handler's attempt counts for failing batches live in the same container and are not dead letters.
        using var iterator = _containers.DeadLetters.GetItemQueryStreamIterator(
            new QueryDefinition("SELECT c.id, c.deviceId, c.payloadBase64, c.payloadSha256 FROM c WHERE IS_DEFINED(c.reason)"));
        var devices = ledger.Devices.Select(d => d.Id).ToHashSet(StringComparer.Ordinal);
        var devicePrefix = CommonPrefix(ledger.Devices.Select(d => d.Id).ToList());
        var unexplained = 0;
        while (iterator.HasMoreResults)
        {
            using var page = await iterator.ReadNextAsync(cancellationToken);
            EnsureSuccess(page, _containers.DeadLetters, "query");
            using var json = await JsonDocument.ParseAsync(page.Content, cancellationToken: cancellationToken);
            foreach (var document in json.RootElement.GetProperty("Documents").EnumerateArray())
            {
                total++;
                string? sha = null;
                byte[]? bytes = null;
                if (document.TryGetProperty("payloadBase64", out var payload) && payload.ValueKind == JsonValueKind.String)
                {
                    bytes = payload.GetBytesFromBase64();
                    sha = Convert.ToHexStringLower(SHA256.HashData(bytes));
                }
                else if (document.TryGetProperty("payloadSha256", out var hash) && hash.ValueKind == JsonValueKind.String)
                {
                    // A dead letter stored reduced (the store refused it whole) keeps the payload's hash.
                    sha = hash.GetString();
                }

                if (sha is not null)
                {
                    found.Add(sha);
                }

                // Not an injection, yet about this run's devices: a good reading of this run was dead-lettered.
                if ((sha is null || !expectedSet.Contains(sha)) && OfThisRun(document, bytes, devices, devicePrefix))
                {
                    unexplained++;
                }
            }
        }

        var matched = expected.Where(found.Contains).ToList();
        verdict.DeadLettered = matched.Count;
        verdict.MissingDeadLetters = [.. expected.Where(h => !found.Contains(h)).Take(Verdict.MaxListed)];
        verdict.OtherDeadLetters = total - matched.Distinct(StringComparer.OrdinalIgnoreCase).Count();
        verdict.DeadLettersTotal = total;
        verdict.UnexplainedDeadLetters = unexplained;
    }

    // A dead letter names this run's device, or its bytes (a whole event) carry one of this run's device ids. Device ids
    // of one run share a prefix ({prefix}-weather-0001), so one search over the bytes finds them.
    private static bool OfThisRun(JsonElement document, byte[]? payload, HashSet<string> devices, string prefix)
    {
        if (document.TryGetProperty("deviceId", out var device) && device.ValueKind == JsonValueKind.String)
        {
            return devices.Contains(device.GetString()!);
        }

        return payload is not null && prefix.Length >= 3 && payload.AsSpan().IndexOf(System.Text.Encoding.UTF8.GetBytes(prefix)) >= 0;
    }

    private static string CommonPrefix(List<string> ids)
    {
        if (ids.Count == 0)
        {
            return "";
        }

        var prefix = ids[0];
        foreach (var id in ids)
        {
            var length = 0;
            while (length < prefix.Length && length < id.Length && prefix[length] == id[length])
            {
                length++;
            }

            prefix = prefix[..length];
        }

        return prefix;
    }

    private static void EnsureSuccess(ResponseMessage response, Container container, string what)
    {
        if (!response.IsSuccessStatusCode)
        {
            // Not "missing": an error (throttling beyond the SDK's retries, a wrong database name, a 500) makes the verdict unknowable.
            throw new CosmosVerifyException($"{container.Database.Id}/{container.Id}/{what}: Cosmos DB answered {(int)response.StatusCode} {response.StatusCode}: {response.ErrorMessage}");
        }
    }

    private static async Task<long?> ReadSequenceAsync(Stream content, CancellationToken cancellationToken)
    {
        using var json = await JsonDocument.ParseAsync(content, cancellationToken: cancellationToken);
        return json.RootElement.TryGetProperty("properties", out var properties)
            && properties.TryGetProperty("sequence", out var sequence)
            && sequence.TryGetInt64(out var value)
                ? value
                : null;
    }

    internal static void Note(ConcurrentQueue<string> list, string item)
    {
        if (list.Count < Verdict.MaxListed)
        {
            list.Enqueue(item);
        }
    }
}

/// <summary>Cosmos DB could not answer a read, so no verdict can be given.</summary>
internal sealed class CosmosVerifyException : Exception
{
    public CosmosVerifyException(string message)
        : base(message)
    {
    }

    public CosmosVerifyException()
    {
    }

    public CosmosVerifyException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
